import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { sqliteFile } from '../../server/db';

// What a new user found by trying the API (2026-11-29): requests the contract (docs/api.md) answers
// with a translated 400, 404 or 415, which answered with valibot's or Fastify's own English, read
// `0x3` as 3 and February 30th as March 2nd, stored half a surrogate pair as U+FFFD, or failed with
// a 500 while `npm run demo` wrote to the same SQLite file.

let server: TestServer;
let admin: Session;
let researcher: Session;
let pid: number;

beforeAll(async () => {
  server = await startServer();
  admin = await server.as(Role.Administrator);
  const org = await server.createOrganization();
  researcher = await server.as(Role.Researcher, { organizationId: org });
  pid = await insertProject(server, org, { name: 'Contract' });
});
afterAll(async () => server?.close());

const genres = async () =>
  (await server.app.db.selectFrom('game_genres').select('name_en').execute()).map((r) => r.name_en);

describe('a query or body field the schema names no message for', () => {
  it('a missing field is "required", in the caller’s language', async () => {
    const en = await server.call('GET', '/project', { session: researcher, locale: 'en' });
    expect(en.status).toBe(400);
    expect(en.body).toMatchObject({ field: 'pid', message: 'pid: This field is required' });
    expect(en.body.details).toEqual([{ field: 'pid', key: 'required' }]);
    const ru = await server.call('GET', '/project', { session: researcher, locale: 'ru' });
    expect(ru.body.message).toBe('pid: Это поле обязательно');
    const crosstab = await server.call('GET', `/project/stats/crosstab?pid=${pid}&rows=q1`, {
      session: researcher,
      locale: 'en',
    });
    expect(crosstab.status).toBe(400);
    expect(crosstab.body.message).toBe('cols: This field is required');
  });

  it('an unknown field is "Unknown field"', async () => {
    const res = await server.call('POST', '/project/callback-secret', {
      session: admin,
      locale: 'en',
      body: { pid, x: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('x: Unknown field');
  });
});

describe('numbers in a query', () => {
  it.each(['0x{id}', '1e0', '+{id}', '{id}.0', ' {id} '])(
    'an id written %s is not a number',
    async (form) => {
      const value = encodeURIComponent(form.replace('{id}', String(pid)));
      const res = await server.call('GET', `/project?pid=${value}`, { session: researcher, locale: 'en' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('pid: This field must be a number');
    },
  );

  it('the same on the games’ and the lists’ numbers', async () => {
    for (const query of ['/game?gameId=0x1', '/games?oid=0x0', '/games?page=1e0', '/users?roles=0x2']) {
      const res = await server.call('GET', query, { session: admin, locale: 'en' });
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(/: This field must be a number$/);
    }
  });

  it('a page size past its maximum names the maximum', async () => {
    const res = await server.call('GET', `/project/respondents?pid=${pid}&pageSize=2147483648`, {
      session: researcher,
      locale: 'en',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^pageSize: At most \d+$/);
  });
});

describe('days', () => {
  it('a day that does not exist is refused, not read as the next month’s', async () => {
    for (const query of [
      `/project/respondents?pid=${pid}&from=2026-02-30`,
      `/project/respondents/file?pid=${pid}&format=csv&to=2026-04-31`,
    ]) {
      const res = await server.call('GET', query, { session: researcher, locale: 'en' });
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(/^(from|to): Invalid value$/);
    }
    const real = await server.call('GET', `/project/respondents?pid=${pid}&from=2024-02-29`, {
      session: researcher,
    });
    expect(real.status).toBe(200);
  });
});

describe('text', () => {
  it('half a surrogate pair is refused by name, and nothing is written', async () => {
    const before = await genres();
    const res = await server.call('POST', '/games/genres', {
      session: admin,
      locale: 'en',
      rawBody: '{"name":"a\\ud800b"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'name' });
    expect(res.body.message).toBe(
      'name: The text contains a broken character (an unpaired UTF-16 surrogate)',
    );
    expect(await genres()).toEqual(before);
    // A real pair written as escapes is a character like any other.
    const pair = await server.call('POST', '/games/genres', {
      session: admin,
      rawBody: '{"name":"Ролевые \\ud83c\\udfae"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(pair.status).toBe(201);
    expect(await genres()).toContain('Ролевые 🎮');
  });

  it('also in a questionnaire, which its route checks without parse()', async () => {
    const res = await server.call('POST', '/project', {
      session: researcher,
      locale: 'en',
      rawBody: `{"pid":${pid},"version":0,"content":{"name":"\\udc00"}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/broken character/);
  });
});

describe('what is not JSON, and paths no route can hold', () => {
  it('a body that is not JSON is 415 with a message of ours', async () => {
    for (const type of ['text/plain', 'application/xml']) {
      const res = await server.call('POST', '/games/genres', {
        session: admin,
        locale: 'en',
        rawBody: '{"name":"Plain"}',
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(415);
      expect(res.body, type).toEqual({
        message: 'The request body must be JSON (Content-Type: application/json)',
        code: 'unsupported-media-type',
      });
    }
    expect(await genres()).not.toContain('Plain');
  });

  it('an empty body named JSON is no body: a DELETE goes through, a form says what is missing', async () => {
    const json = { 'content-type': 'application/json' };
    const other = await insertProject(server, (await server.createOrganization()) as number, {});
    const gone = await server.call('DELETE', `/project?id=${other}`, {
      session: admin,
      rawBody: '',
      headers: json,
    });
    expect(gone.status).toBe(200);
    const form = await server.call('POST', '/games/genres', {
      session: admin,
      locale: 'en',
      rawBody: '',
      headers: json,
    });
    expect(form.status).toBe(400);
    expect(form.body.message).not.toBe('The request body is not valid JSON');
    expect(form.body).toMatchObject({ field: 'body', message: 'body: This field is required' });
  });

  it('a survey token longer than any link is the link-not-found 404, in the page’s language', async () => {
    for (const token of ['a'.repeat(120), 'a'.repeat(65), 'short']) {
      const res = await server.call('GET', `/survey/${token}`, { locale: 'en' });
      expect(res.status, token).toBe(404);
      expect(res.body.code, token).toBe('survey-not-found');
      expect(JSON.stringify(res.body)).not.toContain('aaaaaaaaaa');
    }
  });
});

describe.skipIf(!!process.env.TEST_DATABASE_URL)('SQLite written by another process meanwhile', () => {
  it('a call waits for the other writer instead of failing', async () => {
    // Another process takes the write lock, writes, and commits 400 ms later, as `npm run demo`
    // does beside a running server. The genre's call reads first and then writes: begun as a
    // deferred transaction its read was stale once the other committed, and SQLite failed it at once.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(${JSON.stringify(sqliteFile(server.config.dataDir))});
         db.pragma('busy_timeout = 5000');
         db.exec('begin immediate');
         db.prepare("insert into game_genres (name_ru, name_en, norm_ru, norm_en, created_at) values ('Held', 'Held', 'held', 'held', 0)").run();
         console.log('locked');
         setTimeout(() => { db.exec('commit'); db.close(); }, 400);`,
      ],
      { cwd: path.resolve(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const res = await server.call('POST', '/games/genres', {
      session: admin,
      body: { name: 'After the lock' },
    });
    await new Promise((resolve) => holder.once('exit', resolve));
    expect(res.status).toBe(201);
    expect(await genres()).toEqual(expect.arrayContaining(['Held', 'After the lock']));
  });
});
