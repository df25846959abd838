import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './helpers';
import { seedDemo, DEMO_EMAIL, DEMO_PASSWORD } from '../../server/reports/demo';
import { QUESTION_CATEGORIES } from '../../src/domain/content/model';
import type { ReportJson } from '../../src/domain/reports';
import { loadContent } from '../../server/repos/content';
import { counterQuestions } from '../../server/reports/counters';
import { counterTotals, recount, type RecountRow } from '../../server/reports/recount';

// npm run demo's seeding, on both databases: respondents recorded through the runner's code (several
// at once), every question category answered, the report's counters equal to a recount, the demo
// researcher can sign in and read the report, and a second run changes nothing.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe('the demo data', () => {
  it('seeds a readable report through the runner and can run twice', async () => {
    const first = await seedDemo(server.app.db, { scryptLogN: 10, respondents: 25 });
    expect(first.created).toMatchObject({ organization: true, user: true, project: true, respondents: 25 });
    const session = await server.login(DEMO_EMAIL, DEMO_PASSWORD);
    const res = await server.call('GET', `/project/stats/file?pid=${first.projectId}&type=json`, { session });
    expect(res.status).toBe(200);
    const report = res.body as ReportJson;
    expect(report.respondents.started).toBe(25);
    expect(report.respondents.completed + report.respondents.screenedOut).toBe(25);
    expect(new Set(report.questions.map((q) => q.category))).toEqual(new Set(QUESTION_CATEGORIES));
    // Every respondent answered the screening question, and the ones who passed answered the rest.
    expect(report.questions[0].answered).toBe(25);
    // Respondents recorded side by side kept the report's counters equal to a recount of their rows.
    const { content } = await loadContent(server.app.db, first.projectId);
    const sorted = (rows: RecountRow[]) => rows.map((r) => JSON.stringify(r)).sort();
    expect(sorted(await counterTotals(server.app.db, first.projectId))).toEqual(
      sorted(await recount(server.app.db, first.projectId, counterQuestions(content))),
    );
    const sources = await server.app.db.selectFrom('respondents').select('source').distinct().execute();
    expect(sources).toEqual([{ source: 'demo' }]);
    // In Russian and English (issue 32), about a quarter of the respondents in English.
    expect(report.languages).toEqual(['ru', 'en']);
    const english = await server.app.db
      .selectFrom('respondents')
      .select('id')
      .where('language', '=', 'en')
      .execute();
    expect(english).toHaveLength(6);

    const second = await seedDemo(server.app.db, { scryptLogN: 10, respondents: 25 });
    expect(second.created).toEqual({ organization: false, user: false, project: false, respondents: 0 });
    expect(second.projectId).toBe(first.projectId);
    const count = await server.app.db
      .selectFrom('respondents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(25);
  });

  it('has realistic durations and page times, and a few speeders, straight-liners and gibberish answers', async () => {
    const fresh = await startServer();
    try {
      const demo = await seedDemo(fresh.app.db, { scryptLogN: 10, respondents: 150, concurrency: 1 });
      const session = await fresh.login(DEMO_EMAIL, DEMO_PASSWORD);
      const res = await fresh.call('GET', `/project/stats/file?pid=${demo.projectId}&type=json`, { session });
      const report = res.body as ReportJson;
      // A questionnaire of 14 pages takes a few minutes, not "0 min 0 s".
      expect(report.timing.medianSeconds).toBeGreaterThan(60);
      expect(report.timing.medianSeconds).toBeLessThan(600);
      const counts = Object.fromEntries(report.quality!.flags.map((f) => [f.name, f.count]));
      expect(counts.speeder).toBeGreaterThan(0);
      expect(counts['straight-liner']).toBeGreaterThan(0);
      expect(counts.gibberish).toBeGreaterThan(0);
      expect(report.quality!.percent).toBeLessThan(25);
      const list = await fresh.call(
        'GET',
        `/project/respondents?pid=${demo.projectId}&status=completed&pageSize=1`,
        {
          session,
        },
      );
      const one = await fresh.call(
        'GET',
        `/project/respondent?pid=${demo.projectId}&id=${list.body.items[0].id}`,
        {
          session,
        },
      );
      expect(one.body.pageTimes).toBe(true);
      for (const a of one.body.answers as { seconds: number }[]) expect(a.seconds).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});
