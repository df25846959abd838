import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { insertSurveyProject } from './survey-fixtures';
import { SURVEY_LIMITS } from '../../server/routes/survey';
import { Role } from '../../src/domain/roles';
import { newBlock, newPortrait, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';

// The fields the editor's panels set, as the server holds respondents to them (issue 13): an open
// answer's length, a city question's region (its lookup and its refusals), and the direct link's
// profile step with a city. Every refusal is a translated 400 with nothing written.

let server: TestServer;
let link: string;

function content(): ProjectContent {
  return {
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [
          newBlock({
            id: 'B1',
            questions: [
              newQuestion({ id: 'open', text: 'Open', category: 'open', textLength: { min: 3, max: 10 } }),
              newQuestion({ id: 'city', text: 'City', category: 'cityAuto', region: 'MOS' }),
              newQuestion({
                id: 'nps',
                text: 'NPS',
                category: 'nps',
                scaleLabels: { min: 'Never', max: 'Surely' },
              }),
            ],
          }),
        ],
      }),
    ],
    // A condition on gender: the direct link asks about the respondent (the profile step).
    portraits: [
      newPortrait({
        id: 'p1',
        respondents: 100,
        params: [{ field: 'gender', values: ['female'], min: null, max: null }],
      }),
    ],
  };
}

beforeAll(async () => {
  server = await startServer();
  ({ link } = await insertSurveyProject(server, content()));
});
afterAll(() => server.close());

async function start(attributes?: Record<string, unknown>) {
  const res = await server.call('POST', `/survey/${link}/start`, { body: attributes ? { attributes } : {} });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}
const answer = (rt: string, at: number, questionId: string, reply: unknown, locale: 'en' | 'ru' = 'en') =>
  server.call('POST', '/survey/answer', {
    body: { at, questionId, reply },
    headers: { 'x-respondent-token': rt },
    locale,
  });

/** Everything a refused call could have written. */
async function written() {
  const db = server.app.db;
  const respondents = await db.selectFrom('respondents').select(['id', 'state', 'status', 'city']).execute();
  const rows = await db.selectFrom('respondent_answers').selectAll().orderBy('id').execute();
  return { respondents, rows };
}

describe("an open answer's length", () => {
  it('refuses a text too long or too short for the question, translated, with nothing written', async () => {
    const rt = await start();
    const before = await written();
    const cases: [unknown, string, string, string][] = [
      [
        { text: 'x'.repeat(11) },
        'too-long',
        'The answer is too long: at most 10 characters',
        'Слишком длинный ответ: символов должно быть не больше 10',
      ],
      [
        { text: ' ab ' },
        'too-short',
        'The answer is too short: at least 3 characters',
        'Слишком короткий ответ: символов должно быть не меньше 3',
      ],
    ];
    for (const [reply, code, en, ru] of cases) {
      const res = await answer(rt, 0, 'open', reply);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code, message: en });
      expect((await answer(rt, 0, 'open', reply, 'ru')).body.message).toBe(ru);
    }
    expect(await written()).toEqual(before);
    // The limits themselves are fine (the trimmed text counts).
    const ok = await answer(rt, 0, 'open', { text: ' 0123456789 ' });
    expect(ok.status).toBe(200);
    const rows = await server.app.db
      .selectFrom('respondent_answers')
      .select('text')
      .where('question_id', '=', 'open')
      .execute();
    expect(rows.map((r) => r.text)).toEqual(['0123456789']);
  });
});

describe("a city question's region", () => {
  it('offers only the cities of the region, and refuses a city outside it with nothing written', async () => {
    const rt = await start();
    expect((await answer(rt, 0, 'open', { text: 'hello' })).status).toBe(200);
    const places = (query: string) =>
      server.call('GET', `/survey/places?${query}`, { headers: { 'x-respondent-token': rt } });
    const inRegion = await places('kind=city&search=&region=MOS');
    expect(inRegion.status).toBe(200);
    expect(inRegion.body.length).toBeGreaterThan(0);
    expect(inRegion.body.every((c: { id: string }) => c.id.startsWith('MOS:'))).toBe(true);
    // Saint Petersburg is found without the region and not within it.
    const anywhere = await places('kind=city&search=Petersburg');
    expect(anywhere.body.map((c: { id: string }) => c.id)).toContain('SPE:Saint Petersburg');
    expect((await places('kind=city&search=Petersburg&region=MOS')).body).toEqual([]);
    expect((await places('kind=city&search=x&region=%27%3B--')).status).toBe(400);

    const before = await written();
    const out = await answer(rt, 1, 'city', { text: 'SPE:Saint Petersburg' });
    expect(out.status).toBe(400);
    expect(out.body).toMatchObject({
      code: 'outside-region',
      message: 'This city is not in the region the question asks about',
    });
    expect((await answer(rt, 1, 'city', { text: 'SPE:Saint Petersburg' }, 'ru')).body.message).toBe(
      'Этот город не входит в регион, о котором спрашивает вопрос',
    );
    const unknown = await answer(rt, 1, 'city', { text: 'MOS:Atlantis' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('There is no such place in the list');
    expect(await written()).toEqual(before);
    expect((await answer(rt, 1, 'city', { text: 'MOS:Podolsk' })).status).toBe(200);
  });

  it('takes a city whose name has an apostrophe (no region set)', async () => {
    const c = content();
    c.questionnaires[0].blocks[0].questions[1].region = null;
    const other = await insertSurveyProject(server, c);
    const res = await server.call('POST', `/survey/${other.link}/start`, { body: {} });
    const rt = res.body.token as string;
    expect((await answer(rt, 0, 'open', { text: 'hello' })).status).toBe(200);
    const r = await answer(rt, 1, 'city', { text: 'SAM:Tol’yatti' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });
});

describe("the profile step's city", () => {
  it('looks cities up by the link before the respondent starts; a made-up link is a 404', async () => {
    const info = await server.call('GET', `/survey/${link}`);
    expect(info.body.profile).toBe(true);
    const res = await server.call('GET', `/survey/${link}/places?kind=city&search=Podol`);
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ id: 'MOS:Podolsk', detail: 'Moscow Oblast' });
    const ru = await server.call('GET', `/survey/${link}/places?kind=city&search=Подол`, { locale: 'ru' });
    expect(ru.body[0]).toMatchObject({ id: 'MOS:Podolsk', name: 'Подольск' });
    expect((await server.call('GET', '/survey/NoSuchLink12345/places?kind=city&search=a')).status).toBe(404);
  });

  it('the public lookup is limited per address (429 past the limit)', async () => {
    const max = SURVEY_LIMITS.linkPlacesPerAddress;
    SURVEY_LIMITS.linkPlacesPerAddress = 3;
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++)
        codes.push((await server.call('GET', `/survey/${link}/places?kind=city&search=Mos`)).status);
      expect(codes.slice(-1)).toEqual([429]);
    } finally {
      SURVEY_LIMITS.linkPlacesPerAddress = max;
    }
  });

  it("stores the city picked in the respondent's row (its region with it) for the reports' filter", async () => {
    const rt = await start({ gender: 'female', city: 'MOS:Podolsk' });
    const row = await server.app.db
      .selectFrom('respondents')
      .select(['city', 'region', 'gender', 'portrait_id'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ city: 'MOS:Podolsk', region: 'MOS', gender: 'female', portrait_id: 'p1' });
    expect(rt).toBeTruthy();
    // The city is optional.
    await start({ gender: 'female', city: null });
    // The report's city filter finds the profile's city (a researcher of the project's organization).
    const project = await server.app.db
      .selectFrom('projects')
      .select(['id', 'organization_id'])
      .where('link_token', '=', link)
      .executeTakeFirstOrThrow();
    const researcher = await server.as(Role.Researcher, { organizationId: project.organization_id });
    const report = await server.call(
      'GET',
      `/project/stats/file?pid=${project.id}&type=json&city=${encodeURIComponent('MOS:Podolsk')}`,
      { session: researcher },
    );
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.respondents.started).toBe(1);
    expect(report.body.cities).toEqual([{ id: 'MOS:Podolsk', name: 'Podolsk', count: 1 }]);
  });

  it('refuses a city that is not in the lookup, translated, and starts no one', async () => {
    const before = await written();
    for (const city of ['MOS:Atlantis', 'Podolsk', 'x'.repeat(121)]) {
      const res = await server.call('POST', `/survey/${link}/start`, { body: { attributes: { city } } });
      expect(res.status, city).toBe(400);
      expect(res.body.message, city).toBeTruthy();
    }
    const res = await server.call('POST', `/survey/${link}/start`, {
      body: { attributes: { city: 'MOS:Atlantis' } },
      locale: 'ru',
    });
    expect(res.body).toMatchObject({ code: 'unknown-place', message: 'Такого места нет в списке' });
    expect(await written()).toEqual(before);
  });
});
