import { startServer } from '../server/helpers';
import { median, type Bench } from './run';
import { Role } from '../../src/domain/roles';
import { ALL_STATUSES } from '../../src/domain/projectStatus';
import { PROJECT_TEMPLATES } from '../../src/domain/projects';

// GET /projects at 10 000 projects (DESIGN.md 7: list pages ≤ 20 ms at 10 000 rows, paged), over
// HTTP against the real server with SQLite, as the projects and reports pages call it; and
// GET /cities searches.

export const title = 'Projects: the list at 10 000 projects, and city search (SQLite, over HTTP)';

const bench: Bench = async () => {
  const server = await startServer();
  try {
    const admin = await server.as(Role.Administrator, { organizationId: null });
    const orgs: number[] = [];
    for (let i = 0; i < 100; i++) orgs.push(await server.createOrganization(`Organization ${i}`));
    const researcher = await server.as(Role.Researcher, { organizationId: orgs[0] });
    const moderator = await server.as(Role.Moderator);
    const now = Date.now();
    const words = ['Опрос', 'Игроки', 'Survey', 'Бренд', 'Узнаваемость', 'Retention', 'Новички', 'Платежи'];
    const rows = Array.from({ length: 10_000 }, (_, i) => {
      const name = `${words[i % words.length]} ${words[(i * 3) % words.length]} ${i}`;
      return {
        name,
        search_name: name.toLowerCase(),
        priority: i % 101,
        organization_id: orgs[i % orgs.length],
        template: PROJECT_TEMPLATES[i % 3],
        type: i % 3 === 1 ? 2 : 1,
        status: ALL_STATUSES[i % ALL_STATUSES.length],
        link_token: null,
        created_by: null,
        created_at: now - i * 1000,
        updated_at: now,
        status_changed_at: now,
      };
    });
    for (let i = 0; i < rows.length; i += 500)
      await server.app.db
        .insertInto('projects')
        .values(rows.slice(i, i + 500))
        .execute();
    const ids = await server.app.db.selectFrom('projects').select('id').execute();
    const platforms = ids
      .filter((_, i) => i % 2 === 0)
      .map((r, i) => ({ project_id: r.id, platform_id: (i % 9) + 1 }));
    for (let i = 0; i < platforms.length; i += 500)
      await server.app.db
        .insertInto('project_target_platforms')
        .values(platforms.slice(i, i + 500))
        .execute();

    const time = (path: string, session = admin) =>
      median(async () => {
        const res = await server.call('GET', path, { session });
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      });
    return [
      {
        name: 'GET /projects (Administrator, first page, newest first)',
        value: await time('/projects'),
        unit: 'ms',
        budget: 20,
      },
      { name: 'last page (page=500)', value: await time('/projects?page=500'), unit: 'ms', budget: 20 },
      { name: 'sorted by name', value: await time('/projects?sort=name&order=asc'), unit: 'ms', budget: 20 },
      {
        name: 'sorted by organization',
        value: await time('/projects?sort=organization&order=desc'),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'search "игроки"',
        value: await time(`/projects?search=${encodeURIComponent('игроки')}`),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'status filter (reports page: 6 statuses)',
        value: await time('/projects?status=3&status=5&status=6&status=7&status=9&status=10'),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'target platform filter tpid=4',
        value: await time('/projects?tpid=4'),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'Researcher (one organization of 100)',
        value: await time('/projects', researcher),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'Moderator (everything sent)',
        value: await time('/projects', moderator),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'GET /cities?search=Ниж (Cyrillic, 4 634 places)',
        value: await time(`/cities?search=${encodeURIComponent('Ниж')}`),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'GET /cities (largest cities, no search)',
        value: await time('/cities'),
        unit: 'ms',
        budget: 20,
      },
    ];
  } finally {
    await server.close();
  }
};
export default bench;
