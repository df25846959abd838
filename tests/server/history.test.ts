import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { Role, UserStatus } from '../../src/domain/roles';
import { HISTORY_LIMIT_DEFAULT } from '../../src/domain/history';
import { ProjectStatus } from '../../src/domain/projects';
import { createProject, fillQuestionnaire } from './projects.helpers';

// The log: GET /history (keyset paging by upto, limit, chapter and email filters, translated
// messages), GET /history/chapters, and the promise that nothing edits or deletes an entry.

interface Entry {
  id: number;
  email: string;
  organization: string;
  chapter: string;
  service: string;
  date: number;
  message: string;
}

describe('history', () => {
  let server: TestServer;
  let admin: Session;
  const BASE = 1_700_000_000_000;

  beforeAll(async () => {
    server = await startServer();
    admin = await server.as(Role.Administrator, { organizationId: null });
    // 250 synthetic entries, five per millisecond, so pages must cut through ties correctly.
    const rows = Array.from({ length: 250 }, (_, i) => ({
      user_id: null,
      email: i % 2 ? 'odd@example.com' : 'even@example.com',
      organization: 'Synthetic',
      chapter: i % 5 === 0 ? 'games' : 'projects',
      service: 'POST /synthetic',
      message_key: 'people.log.userDeleted',
      message_params: JSON.stringify({ email: `n${i}@example.com` }),
      created_at: BASE + Math.floor(i / 5),
    }));
    for (let i = 0; i < rows.length; i += 50)
      await server.app.db
        .insertInto('history')
        .values(rows.slice(i, i + 50))
        .execute();
  });
  afterAll(() => server?.close());

  const get = async (query: string, locale: 'en' | 'ru' = 'en') => {
    const res = await server.call('GET', `/history${query}`, { session: admin, locale });
    expect(res.status).toBe(200);
    return res.body as Entry[];
  };

  it('returns the newest entries first with every field, 100 by default', async () => {
    const page = await get(`?upto=${BASE + 1000}`);
    expect(page).toHaveLength(HISTORY_LIMIT_DEFAULT);
    expect(page[0]).toEqual({
      id: expect.any(Number),
      email: 'odd@example.com',
      organization: 'Synthetic',
      chapter: 'projects',
      service: 'POST /synthetic',
      date: BASE + 49,
      message: 'Deleted user n249@example.com',
    });
    for (let i = 1; i < page.length; i++) {
      expect(
        page[i].date < page[i - 1].date || (page[i].date === page[i - 1].date && page[i].id < page[i - 1].id),
      ).toBe(true);
    }
  });

  it('pages with upto and uptoId through ties without skipping or repeating', async () => {
    const seen: number[] = [];
    let upto = BASE + 1000;
    let uptoId: number | undefined;
    for (;;) {
      const page = await get(`?upto=${upto}${uptoId ? `&uptoId=${uptoId}` : ''}&limit=7`);
      if (page.length === 0) break;
      seen.push(...page.map((e) => e.id));
      upto = page[page.length - 1].date;
      uptoId = page[page.length - 1].id;
    }
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
  });

  it('with upto alone returns entries strictly older than upto', async () => {
    const page = await get(`?upto=${BASE + 10}&limit=500`);
    expect(page.every((e) => e.date < BASE + 10)).toBe(true);
    expect(page).toHaveLength(50);
  });

  it('filters by chapter and by email', async () => {
    const games = await get(`?upto=${BASE + 1000}&chapter=games&limit=500`);
    expect(games).toHaveLength(50);
    expect(games.every((e) => e.chapter === 'games')).toBe(true);
    const odd = await get(`?upto=${BASE + 1000}&email=ODD@&limit=500`);
    expect(odd).toHaveLength(125);
    const both = await get(`?upto=${BASE + 1000}&email=even&chapter=games&limit=500`);
    expect(both).toHaveLength(25);
    const chapters = await server.call('GET', '/history/chapters', { session: admin });
    expect(chapters.body).toEqual(expect.arrayContaining(['auth', 'games', 'projects']));
  });

  it('translates messages, and the status and role names inside them, for the reader', async () => {
    const u = await server.createUser({ role: Role.Researcher, status: UserStatus.Activated });
    const put = await server.call('PUT', '/user', {
      body: { id: u.id, statusId: UserStatus.Deactivated },
      session: admin,
    });
    expect(put.status).toBe(200);
    const [en] = await get(`?chapter=users&limit=1`);
    expect(en.message).toBe(`Status of ${u.email}: Activated → Deactivated`);
    expect(en.email).toBe(admin.user.email);
    expect(en.service).toBe('PUT /user');
    const [ru] = await get(`?chapter=users&limit=1`, 'ru');
    expect(ru.message).toBe(`Статус ${u.email}: Активирован → Деактивирован`);
  });

  it('names project statuses in the log instead of their numbers (issue 17)', async () => {
    const researcher = await server.as(Role.Researcher);
    const p = await createProject(server, researcher, { name: 'Logged status' });
    await fillQuestionnaire(server, researcher, p.id);
    const moved = await server.call('POST', '/project/status', {
      session: admin,
      body: { pid: p.id, status: ProjectStatus.OnModeration },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const [en] = await get(`?chapter=projects&limit=1`);
    expect(en.message).toBe(`Status of project #${p.id} changed: Created → On moderation`);
    const [ru] = await get(`?chapter=projects&limit=1`, 'ru');
    expect(ru.message).not.toMatch(/\d+ → \d+/);
    expect(ru.message).toContain('→');
  });

  it('has one entry for each mutating call, sign-in included', async () => {
    const before = (await get('?limit=500')).length;
    const s = await server.as(Role.Researcher);
    await server.call('PUT', '/user', {
      body: { id: s.user.id, fullname: 'Renamed Researcher' },
      session: s,
    });
    await server.call('POST', '/organizations', { body: { name: 'Logged Org', type: 1 }, session: admin });
    const after = await get('?limit=500');
    expect(after.length).toBe(Math.min(500, before + 3));
    expect(after.slice(0, 3).map((e) => e.service)).toEqual([
      'POST /organizations',
      'PUT /user',
      'POST /authentication/login',
    ]);
    expect(after[1]).toMatchObject({
      email: s.user.email,
      message: `Updated user ${s.user.email}: fullname`,
    });
  });

  it('refuses bad queries', async () => {
    for (const q of ['limit=0', 'limit=501', 'upto=yesterday', 'uptoId=-1']) {
      expect((await server.call('GET', `/history?${q}`, { session: admin })).status).toBe(400);
    }
  });

  it('is read-only: no call edits or deletes an entry, and only the administrator reads it', async () => {
    const [first] = await get('?limit=1');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await server.call(method, '/history', {
        body: { id: first.id, message: 'rewritten' },
        session: admin,
      });
      expect(res.status).toBe(404);
    }
    const [still] = await get(`?upto=${first.date + 1}&limit=1`);
    expect(still).toEqual(first);
    for (const role of [
      Role.Moderator,
      Role.ModeratorVK,
      Role.Researcher,
      Role.Issuer,
      Role.DemoResearcher,
    ]) {
      const s = await server.as(role);
      expect((await server.call('GET', '/history', { session: s })).status).toBe(403);
    }
  });
});
