import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { GOOD, ORDER, insertSurveyProject, surveyContent } from './survey-fixtures';
import { Role } from '../../src/domain/roles';
import type { ReportJson } from '../../src/domain/reports';

// The drop-off funnel through the respondents' real calls (issue 23, part 3): every start and every
// answer keeps the respondent's last seen question (migration 018) in the answer's own write, so the
// report can say where people give up. The brute-force property tests (stats.test.ts,
// report-counters.test.ts) check the counting; this one checks what the writers keep.

let server: TestServer;
let pid: number;
let link: string;
let researcher: Session;

beforeAll(async () => {
  server = await startServer();
  ({ pid, link } = await insertSurveyProject(server, surveyContent()));
  const p = await server.app.db
    .selectFrom('projects')
    .select('organization_id')
    .where('id', '=', pid)
    .executeTakeFirstOrThrow();
  researcher = await server.as(Role.Researcher, { organizationId: p.organization_id! });
});
afterAll(() => server?.close());

async function start(): Promise<string> {
  const res = await server.call('POST', `/survey/${link}/start`, { body: {} });
  expect(res.status).toBe(200);
  return res.body.token as string;
}
async function answer(rt: string, at: number, questionId: string, reply: unknown) {
  const res = await server.call('POST', '/survey/answer', {
    body: { at, questionId, reply },
    headers: { 'x-respondent-token': rt },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { status: string };
}
async function lastSeen(): Promise<(string | null)[]> {
  const rows = await server.app.db
    .selectFrom('respondents')
    .select('last_question_id')
    .where('project_id', '=', pid)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.last_question_id);
}

describe('the last seen question', () => {
  it('is the page shown now, the last answered once the survey ends, and follows Back and redirects', async () => {
    const idle = await start(); // sees the first page, answers nothing
    const halfway = await start();
    await answer(halfway, 0, 'scr', GOOD.scr);
    await answer(halfway, 1, 'one', GOOD.one);
    await answer(halfway, 2, 'few', GOOD.few);
    const done = await start();
    for (const [i, id] of ORDER.entries()) await answer(done, i, id, GOOD[id]);
    const turnedAway = await start();
    expect((await answer(turnedAway, 0, 'scr', { answers: ['no'] })).status).toBe('screenedOut');
    const redirected = await start();
    await answer(redirected, 0, 'scr', GOOD.scr);
    await answer(redirected, 1, 'one', { answers: ['o1'] }); // o1 jumps to "open"
    expect(await lastSeen()).toEqual(['scr', 'qual', 'city', 'scr', 'open']);

    // Back: "halfway" changes the answer of page 1 to o1, the later pages are dropped, "open" is next.
    await answer(halfway, 1, 'one', { answers: ['o1'] });
    expect((await lastSeen())[1]).toBe('open');
    void idle;

    const res = await server.call('GET', `/project/stats/file?pid=${pid}&type=json`, { session: researcher });
    expect(res.status).toBe(200);
    const report = res.body as ReportJson;
    const step = (id: string) => report.funnel.find((s) => s.questionId === id)!;
    expect(report.funnel.map((s) => s.questionId)).toEqual(ORDER);
    // Everyone saw the screening question; one left there without answering, one was turned away.
    expect(step('scr')).toEqual({ questionId: 'scr', reached: 5, answered: 4, leftHere: 2, screenedOut: 1 });
    expect(step('one')).toEqual({ questionId: 'one', reached: 3, answered: 3, leftHere: 0, screenedOut: 0 });
    // The redirect skipped "few" and "qual" for two of them.
    expect(step('few')).toEqual({ questionId: 'few', reached: 1, answered: 1, leftHere: 0, screenedOut: 0 });
    expect(step('open')).toEqual({
      questionId: 'open',
      reached: 3,
      answered: 1,
      leftHere: 2,
      screenedOut: 0,
    });
    expect(step('city')).toEqual({
      questionId: 'city',
      reached: 1,
      answered: 1,
      leftHere: 0,
      screenedOut: 0,
    });
    expect(report.timing.completed).toBe(1);
    expect(report.timing.medianSeconds).toBeGreaterThanOrEqual(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(report.timeline).toEqual([{ day: today, started: 5, completed: 1 }]);
  });
});
