import { startServer } from '../server/helpers';
import { median, type Bench } from './run';
import { Role, UserStatus } from '../../src/domain/roles';
import { searchTextOf } from '../../server/repos/people';

// GET /users at 10 000 users (DESIGN.md 7: list pages ≤ 20 ms at 10 000 rows, paged), over HTTP
// against the real server with SQLite, the way the administration pages call it.

export const title = 'People: user lists at 10 000 users (SQLite, over HTTP)';

const bench: Bench = async () => {
  const server = await startServer();
  try {
    const admin = await server.as(Role.Administrator, { organizationId: null });
    const orgs: number[] = [];
    for (let i = 0; i < 200; i++) orgs.push(await server.createOrganization(`Organization ${i}`));
    const now = Date.now();
    const first = ['Анна', 'Борис', 'Вера', 'Глеб', 'John', 'Mary', 'Олег', 'Светлана'];
    const last = ['Иванова', 'Петров', 'Smith', 'Кузнецова', 'Brown', 'Соколов'];
    const rows = Array.from({ length: 10_000 }, (_, i) => {
      const email = `user${i}@bench.example`;
      const fullname = `${first[i % first.length]} ${last[(i * 7) % last.length]} ${i}`;
      return {
        email,
        fullname,
        role_id: i % 10 === 0 ? Role.Issuer : Role.Researcher,
        status_id: [UserStatus.InvitationSent, UserStatus.Activated, UserStatus.Deactivated][i % 3],
        organization_id: orgs[i % orgs.length],
        category_id: null,
        password_hash: null,
        locale: null,
        created_at: now - i * 1000,
        updated_at: now,
        search_text: searchTextOf(email, fullname),
      };
    });
    for (let i = 0; i < rows.length; i += 500)
      await server.app.db
        .insertInto('users')
        .values(rows.slice(i, i + 500))
        .execute();

    const call = async (path: string) => {
      const res = await server.call('GET', path, { session: admin });
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    };
    const time = (path: string) => median(() => call(path));
    // On a shared, busy machine wall time mostly measures the neighbours; the CPU time this process
    // spends on one call (client and server share it) is the steadier number.
    const cpu = async (path: string) => {
      const times: number[] = [];
      for (let i = 0; i < 23; i++) {
        const before = process.cpuUsage();
        await call(path);
        const used = process.cpuUsage(before);
        if (i >= 3) times.push((used.user + used.system) / 1000);
      }
      times.sort((a, b) => a - b);
      return Math.round(times[Math.floor(times.length / 2)] * 100) / 100;
    };
    const cpuRows = [
      ['first page', '/users?roles=4'],
      ['sorted by full name', '/users?roles=4&sort=fullname&order=asc'],
      ['sorted by organization', '/users?roles=4&sort=organization&order=desc'],
      ['search "петров"', `/users?roles=4&search=${encodeURIComponent('петров')}`],
    ] as const;
    const cpuResults = [];
    for (const [name, path] of cpuRows) {
      cpuResults.push({
        name: `CPU per call: ${name}`,
        value: await cpu(path),
        unit: 'ms' as const,
        budget: 20,
      });
    }
    return [
      ...cpuResults,
      {
        name: 'GET /users?roles=4 (first page, newest first)',
        value: await time('/users?roles=4'),
        unit: 'ms',
        budget: 20,
      },
      { name: 'last page (page=450)', value: await time('/users?roles=4&page=450'), unit: 'ms', budget: 20 },
      {
        name: 'sorted by full name',
        value: await time('/users?roles=4&sort=fullname&order=asc'),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'sorted by organization',
        value: await time('/users?roles=4&sort=organization&order=desc'),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'search "петров"',
        value: await time(`/users?roles=4&search=${encodeURIComponent('петров')}`),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'search by email fragment "user99"',
        value: await time('/users?roles=4&search=user99'),
        unit: 'ms',
        budget: 20,
      },
      { name: 'GET /history?limit=100', value: await time('/history?limit=100'), unit: 'ms' },
    ];
  } finally {
    await server.close();
  }
};
export default bench;
