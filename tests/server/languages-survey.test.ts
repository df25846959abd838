import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { insertSurveyProject } from './survey-fixtures';
import { GameStatus } from '../../src/domain/gameStatus';
import {
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
} from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';
import { Role } from '../../src/domain/roles';

// The respondent's questionnaire language on the real server (issue 32), SQLite or PostgreSQL: the
// precedence (the SDK's locale, the link's ?lang=, Accept-Language, the source), the language kept
// per respondent with the last page's counting, and bad language input refused.

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** Two questions in Russian (source), English and German; the German has no translation of q2. */
function content(portraits: ProjectContent['portraits'] = []): ProjectContent {
  return {
    languages: ['ru', 'en', 'de'],
    portraits,
    questionnaires: [
      newQuestionnaire({
        id: 'Q',
        blocks: [
          newBlock({
            id: 'B',
            questions: [
              newQuestion({
                id: 'q1',
                text: 'Вы играете?',
                translations: { en: { text: 'Do you play?' }, de: { text: 'Spielen Sie?' } },
                answers: [
                  newAnswer({
                    id: 'yes',
                    text: 'Да',
                    translations: { en: { text: 'Yes' }, de: { text: 'Ja' } },
                  }),
                  newAnswer({
                    id: 'no',
                    text: 'Нет',
                    translations: { en: { text: 'No' }, de: { text: 'Nein' } },
                  }),
                ],
              }),
              newQuestion({
                id: 'q2',
                text: 'Сколько часов?',
                category: 'open',
                translations: { en: { text: 'How many hours?' } },
              }),
            ],
          }),
        ],
      }),
    ],
  };
}

const info = (token: string, opts: { lang?: string; accept?: string } = {}) =>
  server.call('GET', `/survey/${token}${opts.lang !== undefined ? `?lang=${opts.lang}` : ''}`, {
    headers: opts.accept ? { 'accept-language': opts.accept } : {},
  });

async function start(token: string, body: Record<string, unknown> = {}, accept?: string) {
  const res = await server.call('POST', `/survey/${token}/start`, {
    body,
    headers: accept ? { 'accept-language': accept } : {},
  });
  expect(res.status).toBe(200);
  return res.body.token as string;
}
const answer = (rt: string, at: number, questionId: string, reply: unknown, language?: string) =>
  server.call('POST', '/survey/answer', {
    body: { at, questionId, reply, ...(language !== undefined && { language }) },
    headers: { 'x-respondent-token': rt },
  });
const languageOf = async (rt: string) =>
  (await server.call('GET', '/survey/session', { headers: { 'x-respondent-token': rt } })).body.language;

describe('the link: ?lang=, then Accept-Language, then the source', () => {
  let link: string;
  beforeAll(async () => {
    ({ link } = await insertSurveyProject(server, content()));
  });

  it('lists the questionnaire’s languages named in themselves', async () => {
    const res = await info(link, { accept: 'ru' });
    expect(res.body.languages).toEqual([
      { code: 'ru', name: 'Русский' },
      { code: 'en', name: 'English' },
      { code: 'de', name: 'Deutsch' },
    ]);
    expect(res.body.language).toBe('ru');
  });

  it('takes ?lang= over the browser’s languages, and the browser’s over the source', async () => {
    expect((await info(link, { lang: 'de', accept: 'en-US,en;q=0.9' })).body.language).toBe('de');
    expect((await info(link, { accept: 'fr-FR, en-GB;q=0.8, de;q=0.5' })).body.language).toBe('en');
    expect((await info(link, { lang: 'fr', accept: 'fr, de;q=0.3' })).body.language).toBe('de');
    expect((await info(link, { accept: 'fr, es' })).body.language).toBe('ru');
    // A malformed ?lang= is passed over like one the questionnaire does not have.
    expect((await info(link, { lang: '%3Cscript%3E', accept: 'en' })).body.language).toBe('en');
  });

  it('stores the language the page asks for at the start, else the one Accept-Language gives', async () => {
    const asked = await start(link, { language: 'de' }, 'en');
    expect(await languageOf(asked)).toBe('de');
    const byHeader = await start(link, {}, 'en-US,en;q=0.9');
    expect(await languageOf(byHeader)).toBe('en');
    const notOffered = await start(link, { language: 'fr' }, 'fr');
    expect(await languageOf(notOffered)).toBe('ru');
  });

  it('keeps the language of the last page: a respondent who switches counts in the one they finish in', async () => {
    const rt = await start(link, { language: 'en' });
    expect((await answer(rt, 0, 'q1', { answers: ['yes'] }, 'en')).status).toBe(200);
    expect(await languageOf(rt)).toBe('en');
    // Switched to Russian in the middle: the last page is Russian.
    const last = await answer(rt, 1, 'q2', { text: '5' }, 'ru');
    expect(last.status).toBe(200);
    expect(last.body.status).toBe('completed');
    const row = await server.app.db
      .selectFrom('respondents')
      .select(['language', 'status'])
      .where('token_hash', '=', crypto.createHash('sha256').update(rt).digest('hex'))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ language: 'ru', status: 2 });
  });

  it('leaves the language alone for an answer without one, or in a language the questionnaire has not', async () => {
    const rt = await start(link, { language: 'de' });
    expect((await answer(rt, 0, 'q1', { answers: ['no'] })).status).toBe(200);
    expect((await answer(rt, 1, 'q2', { text: '1' }, 'fr')).status).toBe(200);
    expect(await languageOf(rt)).toBe('de');
  });

  it('refuses a malformed language with 400 and writes nothing', async () => {
    const badStart = await server.call('POST', `/survey/${link}/start`, { body: { language: 'english!' } });
    expect(badStart.status).toBe(400);
    expect(badStart.body.field).toBe('language');
    expect(badStart.body.message).toBe('language: Unknown language code');
    const rt = await start(link, { language: 'en' });
    const bad = await answer(rt, 0, 'q1', { answers: ['yes'] }, 'x'.repeat(40));
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('language');
    const s = await server.call('GET', '/survey/session', { headers: { 'x-respondent-token': rt } });
    expect(s.body.replies).toEqual([]);
    expect(s.body.language).toBe('en');
  });

  it('gives the runner the content with its languages and translations', async () => {
    const rt = await start(link, { language: 'en' });
    const s = await server.call('GET', '/survey/session', { headers: { 'x-respondent-token': rt } });
    expect(s.body.content.languages).toEqual(['ru', 'en', 'de']);
    expect(s.body.content.questionnaires[0].blocks[0].questions[0].translations.en.text).toBe('Do you play?');
  });
});

describe('the game SDK: its locale comes first', () => {
  async function insertGame() {
    const db = server.app.db;
    const org = await server.createOrganization();
    const first = (t: 'game_genres' | 'game_platforms' | 'game_currencies') =>
      db.selectFrom(t).select('id').executeTakeFirstOrThrow();
    const apiKey = crypto.randomBytes(12).toString('hex');
    const token = crypto.randomBytes(12).toString('hex');
    const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
    const now = Date.now();
    await db
      .insertInto('games')
      .values({
        name: `Game ${apiKey}`,
        name_norm: `game ${apiKey}`,
        organization_id: org,
        genre_id: (await first('game_genres')).id,
        platform_id: (await first('game_platforms')).id,
        currency_id: (await first('game_currencies')).id,
        status: GameStatus.Connected,
        url: 'https://example.com',
        api_key_hash: sha(apiKey),
        api_key_prefix: 'x',
        api_key_suffix: 'x',
        token_hash: sha(token),
        token_prefix: 'x',
        token_suffix: 'x',
        sdk_connected_at: now,
        last_sdk_at: now,
        created_by: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return { apiKey, token };
  }

  let game: { apiKey: string; token: string };
  let n = 0;
  beforeAll(async () => {
    game = await insertGame();
    await insertSurveyProject(
      server,
      content([
        newPortrait({
          id: 'all',
          respondents: 100,
          params: [{ field: 'age', values: [], min: 14, max: 99 }],
        }),
      ]),
      { template: 'target' },
    );
  });
  const ticket = async (locale?: unknown) => {
    const res = await server.call('POST', '/games/sdk/survey', {
      body: { ...game, player: { id: `p${++n}`, age: 30 }, ...(locale !== undefined && { locale }) },
    });
    return res;
  };
  const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

  it('takes the SDK’s locale over ?lang= and Accept-Language, and stores it for the respondent', async () => {
    const res = await ticket('de-AT');
    expect(res.status).toBe(200);
    const t = tokenOf(res.body.url);
    const i = await info(t, { lang: 'en', accept: 'en' });
    expect(i.body).toMatchObject({ kind: 'ticket', language: 'de' });
    // A start without a language of its own gets the SDK's, whatever the browser says.
    const rt = await start(t, {}, 'en');
    expect(await languageOf(rt)).toBe('de');
  });

  it('passes over a locale the questionnaire does not have: ?lang= decides then', async () => {
    const t = tokenOf((await ticket('fr')).body.url);
    expect((await info(t, { lang: 'en', accept: 'ru' })).body.language).toBe('en');
    const none = tokenOf((await ticket()).body.url);
    expect((await info(none, { accept: 'de' })).body.language).toBe('de');
  });

  it('refuses a malformed locale with 400', async () => {
    const res = await ticket('not a locale');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('locale');
    const number = await ticket(42);
    expect(number.status).toBe(400);
  });
});

describe('the researcher reading one respondent', () => {
  it('reads the questions and answers in their own language when the questionnaire has it', async () => {
    const { pid, link } = await insertSurveyProject(server, content());
    // A German page in an English browser: the respondent's language is the page's, not the browser's.
    const rt = await start(link, { language: 'de' }, 'en');
    expect((await answer(rt, 0, 'q1', { answers: ['yes'] }, 'de')).status).toBe(200);
    const org = await server.app.db
      .selectFrom('projects')
      .select('organization_id')
      .where('id', '=', pid)
      .executeTakeFirstOrThrow();
    const researcher = await server.as(Role.Researcher, { organizationId: org.organization_id });
    const listed = (await server.call('GET', `/project/respondents?pid=${pid}`, { session: researcher })).body
      .items[0];
    const id = listed.id as number;
    expect(listed.language).toBe('de');
    const one = await server.call('GET', `/project/respondent?pid=${pid}&id=${id}`, { session: researcher });
    expect(one.body.respondent.language).toBe('de');
    const read = async (locale: 'en' | 'ru') => {
      const res = await server.call('GET', `/project/respondent?pid=${pid}&id=${id}`, {
        session: researcher,
        locale,
      });
      expect(res.status).toBe(200);
      const q1 = res.body.answers.find((a: { questionId: string }) => a.questionId === 'q1');
      return [q1.text, q1.picked.map((p: { text: string }) => p.text)];
    };
    expect(await read('en')).toEqual(['Do you play?', ['Yes']]);
    expect(await read('ru')).toEqual(['Вы играете?', ['Да']]);
  });
});
