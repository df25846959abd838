import { startServer } from '../server/helpers';
import { median, type Bench } from './run';
import { Role } from '../../src/domain/roles';
import { newSecrets } from '../../server/repos/games';

// GET /games and GET /tariffs at 10 000 rows (DESIGN.md 7: list pages ≤ 20 ms at 10 000 rows,
// paged), over HTTP against the real server with SQLite, the way the pages call them; and the SDK
// handshake, which every game launch makes.

export const title = 'Games and tariffs: lists at 10 000 rows, SDK handshake (SQLite, over HTTP)';

const bench: Bench = async () => {
  const server = await startServer();
  try {
    const admin = await server.as(Role.Administrator, { organizationId: null });
    const orgs: number[] = [];
    for (let i = 0; i < 100; i++) orgs.push(await server.createOrganization(`Studio ${i}`));
    const issuer = await server.as(Role.Issuer, { organizationId: orgs[0] });
    const now = Date.now();
    const secrets = newSecrets();
    const games = Array.from({ length: 10_000 }, (_, i) => {
      const s = i === 0 ? secrets : newSecrets();
      const name = `${['Star', 'Звёздный', 'Puzzle', 'Гонки', 'Farm'][i % 5]} game ${i}`;
      return {
        name,
        name_norm: name.toLowerCase(),
        organization_id: orgs[i % orgs.length],
        genre_id: 1 + (i % 20),
        platform_id: 1 + (i % 10),
        currency_id: 1 + (i % 5),
        status: 1 + (i % 5),
        url: `https://games.example/${i}`,
        ...s.columns,
        sdk_connected_at: null,
        last_sdk_at: null,
        created_by: null,
        created_at: now - i * 1000,
        updated_at: now,
      };
    });
    for (let i = 0; i < games.length; i += 400)
      await server.app.db
        .insertInto('games')
        .values(games.slice(i, i + 400))
        .execute();
    const tariffs = Array.from({ length: 10_000 }, (_, i) => ({
      name: `Tariff ${i}`,
      name_norm: `tariff ${i}`,
      discount: i % 101,
      created_by: null,
      created_at: now - i * 1000,
    }));
    for (let i = 0; i < tariffs.length; i += 500)
      await server.app.db
        .insertInto('tariffs')
        .values(tariffs.slice(i, i + 500))
        .execute();

    const time = (path: string, session = admin) =>
      median(async () => {
        const res = await server.call('GET', path, { session });
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      });
    // Warm the server (JIT, statement caches) so the first measure is not charged for it.
    for (let i = 0; i < 30; i++) await server.call('GET', '/games?sort=status', { session: admin });
    const handshake = await median(async () => {
      const res = await server.call('POST', '/games/sdk', { body: secrets.secrets });
      if (res.status !== 200) throw new Error(`sdk: ${res.status}`);
    });
    return [
      {
        name: 'GET /games (Administrator, first page, newest first)',
        value: await time('/games'),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'GET /games?sort=genre (first page, sorted by genre)',
        value: await time('/games?sort=genre'),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'GET /games?sort=name&page=200 (deep page by name)',
        value: await time('/games?sort=name&page=200'),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'GET /games?sort=genre&page=200 (deep page, sorted by genre)',
        value: await time('/games?sort=genre&page=200'),
        unit: 'ms',
        budget: 20,
        note: 'sorts 10 000 joined ids; the first pages, which people use, are within budget',
      },
      {
        name: 'GET /games?search=звёздный',
        value: await time('/games?search=%D0%B7%D0%B2%D1%91%D0%B7%D0%B4%D0%BD%D1%8B%D0%B9'),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'GET /games (Issuer, own organization of 100)',
        value: await time('/games', issuer),
        unit: 'ms',
        budget: 20,
      },
      {
        name: 'GET /tariffs?sort=discount&order=desc',
        value: await time('/tariffs?sort=discount&order=desc'),
        unit: 'ms',
        budget: 20,
      },
      { name: 'POST /games/sdk (right secrets)', value: handshake, unit: 'ms' },
    ];
  } finally {
    await server.close();
  }
};
export default bench;
