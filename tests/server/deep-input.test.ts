import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { completeContent, getProject, insertProject, saveProject } from './content-helpers';
import { insertSurveyProject, surveyContent } from './survey-fixtures';
import { Role } from '../../src/domain/roles';
import { MAX_JSON_DEPTH } from '../../src/domain/validation';
import { jsonDepthExceeds } from '../../server/http/json-body';
import { valueProblem } from '../../server/http/input-guard';

// Issue 26, part 1: a body nested 50 000 levels deep used to answer 500 ("Maximum call stack size
// exceeded" in the recursive input guard) on every route that reads a body. It is refused while the
// body is parsed, with a translated 400 that names the limit, and nothing is written.

let server: TestServer;
let admin: Session;

beforeAll(async () => {
  server = await startServer();
  admin = await server.as(Role.Administrator);
});
afterAll(async () => server?.close());

const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
/** Inside a real body: the depth sits in one field, the rest is a plausible call. */
const inField = (deep: string) => `{"email":"a@example.com","password":"password1","extra":${deep}}`;

const count = async (table: 'users' | 'projects' | 'project_contents' | 'respondents') =>
  Number(
    (
      await server.app.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('a body nested deeper than the limit', () => {
  it.each([
    ['a 50 000-deep array', deepArray(50_000)],
    ['a 50 000-deep object', deepObject(50_000)],
    ['a deep value inside a real body', inField(deepArray(50_000))],
    ['one level past the limit', deepArray(MAX_JSON_DEPTH + 1)],
  ])('%s is a 400 naming the limit, in the caller’s language', async (_name, text) => {
    for (const [method, path, session] of [
      ['POST', '/authentication/login', undefined],
      ['POST', '/user', admin],
      ['POST', '/games', admin],
      ['POST', '/tariffs', admin],
      ['POST', '/project', admin],
      ['POST', '/survey/answer', undefined],
      ['POST', '/survey/AAAAAAAAAAAA/start', undefined],
      ['POST', '/games/sdk/survey', undefined],
    ] as const) {
      const en = await server.call(method, path, {
        session,
        rawBody: text,
        headers: { 'content-type': 'application/json' },
      });
      expect(en.status, `${method} ${path}`).toBe(400);
      expect(en.body).toMatchObject({ code: 'too-deep' });
      expect(en.body.message).toBe(`The request is nested too deeply: at most ${MAX_JSON_DEPTH} levels`);
      const ru = await server.call(method, path, {
        session,
        locale: 'ru',
        rawBody: text,
        headers: { 'content-type': 'application/json' },
      });
      expect(ru.status).toBe(400);
      expect(ru.body.message).toContain(String(MAX_JSON_DEPTH));
      expect(ru.body.message).not.toBe(en.body.message);
    }
  });

  it('writes nothing: the questionnaire and the respondents stay as they were', async () => {
    const pid = await insertProject(server, admin.user.organization!.id);
    expect((await saveProject(server, admin, pid, completeContent(), 0)).status).toBe(200);
    const before = (await getProject(server, admin, pid)).body;
    const { link } = await insertSurveyProject(server, surveyContent());
    const respondents = await count('respondents');
    const versions = await count('project_contents');
    const deep = `{"pid":${pid},"content":{"questionnaires":${deepArray(50_000)},"portraits":[]}}`;
    const res = await server.call('POST', '/project', {
      session: admin,
      rawBody: deep,
      headers: { 'content-type': 'application/json', 'if-match': '1' },
    });
    expect(res.status).toBe(400);
    const start = await server.call('POST', `/survey/${link}/start`, {
      rawBody: `{"attributes":${deepObject(50_000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(start.status).toBe(400);
    expect((await getProject(server, admin, pid)).body).toEqual(before);
    expect(await count('respondents')).toBe(respondents);
    expect(await count('project_contents')).toBe(versions);
  });

  it('still takes a body exactly at the limit (and real questionnaires are far below it)', async () => {
    // 64 levels of arrays inside the login body's unknown field: refused for the field, not the depth.
    const res = await server.call('POST', '/authentication/login', {
      rawBody: inField(deepArray(MAX_JSON_DEPTH - 1)),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).not.toBe('too-deep');
    expect(res.body.field).toBe('extra');
  });
});

describe('walks over input never recurse without a bound', () => {
  it('the text check counts depth outside strings only', () => {
    expect(jsonDepthExceeds(deepArray(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(deepArray(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ s: '['.repeat(1000) + '"\\' }), 4)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'a\\"[[[[[[' }), 2)).toBe(false);
    // A string ending in an escaped backslash ends there: the brackets after it count.
    expect(jsonDepthExceeds(JSON.stringify({ s: 'a\\', t: [[[]]] }), 3)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'a\\', t: [[[]]] }), 4)).toBe(false);
  });

  it('the value guard takes a 200 000-deep value built in memory without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = i % 2 ? [deep] : { a: deep };
    expect(valueProblem(deep)).toMatchObject({ key: 'tooDeep' });
    let wide: unknown[] = [];
    for (let i = 0; i < 100_000; i++) wide.push(i);
    expect(valueProblem(wide)).toBeNull();
    wide = [...wide, 'a\u0000'];
    expect(valueProblem(wide)).toEqual({ field: '100000', key: 'controlChars' });
  });
});
