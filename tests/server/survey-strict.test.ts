import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { GOOD, insertSurveyProject, surveyContent } from './survey-fixtures';

// Issue 26, part 2: the respondent's two writing calls are strict like every other body (an unknown
// field is a 400 naming it, nothing written), and their 400s give the plain translated reasons
// every other route gives, in the respondent's language, never the validation library's English.
// The game SDK's calls stay lenient (docs/api.md: a newer SDK must not break an older server).

let server: TestServer;
let link: string;

beforeAll(async () => {
  server = await startServer();
  ({ link } = await insertSurveyProject(server, surveyContent()));
});
afterAll(() => server.close());

const count = async (table: 'respondents' | 'respondent_answers') =>
  Number(
    (
      await server.app.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function start() {
  const res = await server.call('POST', `/survey/${link}/start`, { body: {} });
  expect(res.status).toBe(200);
  return res.body.token as string;
}
const answer = (rt: string, body: unknown, locale?: 'ru' | 'en') =>
  server.call('POST', '/survey/answer', { body, locale, headers: { 'x-respondent-token': rt } });

describe('POST /survey/:token/start', () => {
  it.each([
    [{ unexpectedField: 1 }, 'unexpectedField'],
    [{ locale: 'en', unexpectedField: 1 }, 'unexpectedField'],
    [{ attributes: { gender: 'male', colour: 'red' } }, 'attributes.colour'],
  ])('refuses an unknown field (%j) naming it, starting no respondent', async (body, field) => {
    const before = await count('respondents');
    const res = await server.call('POST', `/survey/${link}/start`, { body });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.message).toBe(`${field}: Unknown field`);
    const ru = await server.call('POST', `/survey/${link}/start`, { body, locale: 'ru' });
    expect(ru.body.message).toBe(`${field}: Лишнее поле`);
    expect(await count('respondents')).toBe(before);
  });

  it('says what is wrong with a known field in plain words, in the respondent’s language', async () => {
    const age = await server.call('POST', `/survey/${link}/start`, { body: { attributes: { age: 5 } } });
    expect(age.status).toBe(400);
    expect(age.body.message).toBe('attributes.age: At least 14');
    const locale = await server.call('POST', `/survey/${link}/start`, {
      body: { locale: 'de' },
      locale: 'ru',
    });
    expect(locale.body.message).toBe('locale: Неверное значение');
    const gender = await server.call('POST', `/survey/${link}/start`, {
      body: { attributes: { gender: 3 } },
    });
    expect(gender.body.message).toBe('attributes.gender: Invalid value');
  });
});

describe('POST /survey/answer', () => {
  it('refuses an unknown field naming it, completing no page', async () => {
    const rt = await start();
    const rows = await count('respondent_answers');
    const res = await answer(rt, { at: 0, questionId: 'scr', reply: GOOD.scr, unexpectedField: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'unexpectedField', message: 'unexpectedField: Unknown field' });
    const inReply = await answer(rt, { at: 0, questionId: 'scr', reply: { answers: ['yes'], colour: 1 } });
    expect(inReply.status).toBe(400);
    expect(inReply.body).toMatchObject({ field: 'reply.colour', message: 'reply.colour: Unknown field' });
    expect(await count('respondent_answers')).toBe(rows);
    const session = await server.call('GET', '/survey/session', { headers: { 'x-respondent-token': rt } });
    expect(session.body.replies).toEqual([]);
    // The same page without the extra field is taken.
    expect((await answer(rt, { at: 0, questionId: 'scr', reply: GOOD.scr })).status).toBe(200);
  });

  it.each([
    [{ questionId: 'scr', reply: {} }, 'at: This field is required', 'at: Это поле обязательно'],
    [{ at: 'x', questionId: 'scr', reply: {} }, 'at: Wrong type of value', 'at: Неверный тип значения'],
    [{ at: -1, questionId: 'scr', reply: {} }, 'at: At least 0', 'at: Не меньше 0'],
    [{ at: 0, questionId: 'a b', reply: {} }, 'questionId: Invalid value', 'questionId: Неверное значение'],
    [
      { at: 0, questionId: 'scr', reply: { value: 'x' } },
      'reply.value: Wrong type of value',
      'reply.value: Неверный тип значения',
    ],
  ])('answers %j with translated plain words', async (body, en, ru) => {
    const rt = await start();
    const res = await answer(rt, body, 'en');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(en);
    expect(res.body.message).not.toMatch(/Expected|received|Invalid key/);
    expect((await answer(rt, body, 'ru')).body.message).toBe(ru);
  });
});

describe('the SDK stays lenient', () => {
  it('POST /games/sdk and /games/sdk/survey take extra fields (then refuse the unknown game)', async () => {
    for (const path of ['/games/sdk', '/games/sdk/survey']) {
      const res = await server.call('POST', path, {
        body: { apiKey: 'k', token: 't', sdkVersion: '9.9', player: { id: 'p1', extra: 1 } },
      });
      expect(res.status, path).toBe(401);
    }
  });
});
