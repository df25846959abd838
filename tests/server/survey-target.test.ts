import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { GOOD, ORDER, insertSurveyProject, surveyContent } from './survey-fixtures';
import { newPortrait } from '../../src/domain/content/factory';

// A target project's survey link (issue #26): it used to answer "we already have enough answers"
// to everyone at once, since a visitor who was never asked fits no portrait. Now the link asks the
// profile step (required there), matches the visitor to a portrait with room, and tells a visitor
// who fits none that the survey looks for other participants.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const portraits = () => [
  newPortrait({
    id: 'young',
    respondents: 5,
    params: [{ field: 'age', values: [], min: 14, max: 29 }],
  }),
  newPortrait({
    id: 'women',
    respondents: 1,
    params: [
      { field: 'gender', values: ['female'], min: null, max: null },
      { field: 'age', values: [], min: 30, max: 99 },
    ],
  }),
];

const start = (link: string, attributes?: Record<string, unknown>) =>
  server.call('POST', `/survey/${link}/start`, { body: attributes ? { attributes } : {} });
const answer = (rt: string, at: number, questionId: string, reply: unknown) =>
  server.call('POST', '/survey/answer', {
    body: { at, questionId, reply },
    headers: { 'x-respondent-token': rt },
  });
const lastRespondent = () =>
  server.app.db.selectFrom('respondents').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
const respondentCount = async () =>
  Number(
    (
      await server.app.db
        .selectFrom('respondents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("a target project's survey link", () => {
  it('asks the profile step, required, naming the fields the portraits ask about', async () => {
    const { link } = await insertSurveyProject(server, surveyContent(portraits()), { template: 'target' });
    const info = await server.call('GET', `/survey/${link}`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      kind: 'link',
      state: 'open',
      profile: true,
      profileRequired: true,
      profileFields: ['gender', 'age'],
    });
  });

  it('matches a visitor to a portrait with room and counts the completion there', async () => {
    const { link } = await insertSurveyProject(server, surveyContent(portraits()), { template: 'target' });
    const res = await start(link, { age: 22, gender: 'male' });
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('started');
    expect((await lastRespondent()).portrait_id).toBe('young');
    for (const [i, q] of ORDER.entries())
      expect((await answer(res.body.token, i, q, GOOD[q])).status).toBe(200);

    // A woman over 30 fits the second portrait (one place): the first takes it, the next is told it is full.
    const w = await start(link, { age: 40, gender: 'female' });
    expect(w.body.state).toBe('started');
    expect((await lastRespondent()).portrait_id).toBe('women');
    for (const [i, q] of ORDER.entries()) await answer(w.body.token, i, q, GOOD[q]);
    expect((await start(link, { age: 41, gender: 'female' })).body).toEqual({ state: 'quotaFull' });
  });

  it('tells a visitor who fits no portrait that the survey looks for others, and writes nothing', async () => {
    const { link } = await insertSurveyProject(server, surveyContent(portraits()), { template: 'target' });
    const before = await respondentCount();
    expect((await start(link, { age: 45, gender: 'male' })).body).toEqual({ state: 'noMatch' });
    // Skipping the step (no attributes) cannot match a portrait with conditions either.
    expect((await start(link)).body).toEqual({ state: 'noMatch' });
    expect(await respondentCount()).toBe(before);
  });

  it('a direct link keeps its optional step: a visitor who fits no portrait is taken without one', async () => {
    const { link } = await insertSurveyProject(server, surveyContent(portraits()));
    const info = await server.call('GET', `/survey/${link}`);
    expect(info.body).toMatchObject({ profile: true, profileRequired: false });
    const res = await start(link, { age: 45, gender: 'male' });
    expect(res.body.state).toBe('started');
    expect((await lastRespondent()).portrait_id).toBeNull();
  });

  it('a target project whose portraits have no conditions starts at once', async () => {
    const open = [newPortrait({ id: 'all', respondents: 3, params: [] })];
    const { link } = await insertSurveyProject(server, surveyContent(open), { template: 'target' });
    expect((await server.call('GET', `/survey/${link}`)).body).toMatchObject({
      profile: false,
      profileRequired: false,
    });
    expect((await start(link)).body.state).toBe('started');
    expect((await lastRespondent()).portrait_id).toBe('all');
  });
});
