import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Migrator } from 'kysely';
import { startServer, type Session, type TestServer } from './helpers';
import { insertSurveyProject } from './survey-fixtures';
import { expectReport } from './stats-brute';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { runFlow, type Reply } from '../../src/domain/flow';
import type { ProjectContent } from '../../src/domain/content/model';
import type { ReportFilters, ReportJson } from '../../src/domain/reports';
import {
  insertRespondents,
  sampleContent,
  sampleRespondents,
  seeded,
  type Random,
  type SampleRespondent,
} from '../../server/reports/sample';
import { demoReply } from '../../server/reports/demo';
import { withEnglish } from '../../server/reports/sample-english';
import { startRespondent, type SurveyState } from '../../server/survey/respond';
import { searchCities } from '../../server/data/cities';
import { migrationsFor } from '../../server/db/migrations';
import { counterQuestions } from '../../server/reports/counters';
import { counterTotals, rebuildCounters, recount, type RecountRow } from '../../server/reports/recount';

// The report's counters (server/reports/counters.ts) kept by the runner's own calls: respondents
// answer at the same time through POST /survey/answer, resend pages, go Back and change answers,
// send one page twice at once, stop halfway, and race for a portrait's last places (quotaFull).
// Afterwards the counters equal a recount of the answer rows, and the JSON report (which reads the
// counters unless a city is filtered with an age range) equals a brute-force count of
// the stored rows, with and without filters. The questionnaire is in Russian and English and
// respondents switch language between pages (024: the counters are keyed by the language of the
// last page, and an answer in another language moves the respondent's counted rows), so the
// language filter is among those compared. And the migrations (011 since the counters are keyed by
// gender, education and age, 013 per city, 024 by language) count the answers stored before them.
// Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)];
const CITIES = ['Москва', 'Казань', 'Самара'].map(
  (c) => searchCities({ search: c, limit: 1, locale: 'ru' })[0].id,
);

/** A reply the page accepts; sometimes with the "other" text where the question offers one. */
function reply(r: Random, page: Parameters<typeof demoReply>[1]): Reply {
  const out = demoReply(r, page);
  if (page.question.category === 'fewAnswers' && page.question.other !== null && r() < 0.3)
    return { ...out, other: 'Умные часы' };
  return out;
}

async function newProject(small: number) {
  const content: ProjectContent = withEnglish(sampleContent());
  // One portrait with a few places (so completions race for the last ones), one that never fills
  // (so the project stays on rotation while the others answer).
  content.portraits[0] = { ...content.portraits[0], respondents: small };
  content.portraits[1] = {
    ...content.portraits[1],
    respondents: 100_000,
    params: [{ field: 'age', values: [], min: 14, max: 99 }],
  };
  const { pid } = await insertSurveyProject(server, content, { template: 'target' });
  const row = await server.app.db
    .selectFrom('projects')
    .select('organization_id')
    .where('id', '=', pid)
    .executeTakeFirstOrThrow();
  const session = await server.as(Role.Researcher, { organizationId: row.organization_id! });
  return { pid, content, session };
}

/** What the walks did, so the test can say it covered each case. */
const seen = { back: 0, resend: 0, double: 0, quotaFull: 0, switched: 0 };

async function answer(token: string, at: number, questionId: string, body: Reply, language?: string) {
  const res = await server.call('POST', '/survey/answer', {
    body: { at, questionId, reply: body, ...(language && { language }) },
    headers: { 'x-respondent-token': token },
  });
  if (res.status === 200 && res.body.status === 'quotaFull') seen.quotaFull++;
  return res;
}

/** One respondent's random walk through the survey: next pages, resends, Back, doubles, quitting. */
async function walk(r: Random, content: ProjectContent, respondentId: number, token: string) {
  const db = server.app.db;
  // The page's language: sometimes not sent (an older page), sometimes switched between pages.
  let language: string | undefined = pick(r, ['ru', 'en', undefined]);
  let stored: string | null = null;
  for (let step = 0; step < 40; step++) {
    if (r() < 0.2) language = pick(r, ['ru', 'en', undefined]);
    const row = await db
      .selectFrom('respondents')
      .selectAll()
      .where('id', '=', respondentId)
      .executeTakeFirstOrThrow();
    const state = JSON.parse(row.state) as SurveyState;
    // A stored language that moved with pages already counted: their rows moved with it.
    if (stored !== null && row.language !== stored && state.replies.length > 1) seen.switched++;
    stored = row.language;
    const last = state.replies.at(-1);
    const roll = r();
    if (row.status !== 1 || roll < 0.1) {
      // A resend of the last page answers the same and changes nothing.
      if (last) {
        const res = await answer(token, state.replies.length - 1, last.questionId, last.reply, language);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        seen.resend++;
      }
      if (row.status !== 1) return;
      continue;
    }
    const flow = runFlow(content, { questionnaireId: state.start, seed: state.seed }, state.replies);
    if (roll < 0.25 && state.replies.length > 0) {
      // Back to an earlier page with another answer: refused when a redirect lies in between.
      const at = Math.floor(r() * state.replies.length);
      const page = flow.pages[at];
      const res = await answer(token, at, page.question.id, reply(r, page), language);
      expect([200, 409], JSON.stringify(res.body)).toContain(res.status);
      if (res.status === 200) seen.back++;
      continue;
    }
    if (roll > 0.97) return; // left halfway
    if (flow.next.kind !== 'page') return;
    const page = flow.next;
    const body = reply(r, page);
    if (roll > 0.9) {
      // The same page twice at once (a double click): one writes, the other answers the same or busy.
      const both = await Promise.all([
        answer(token, page.index, page.question.id, body, language),
        answer(token, page.index, page.question.id, body, language),
      ]);
      for (const res of both) expect([200, 409], JSON.stringify(res.body)).toContain(res.status);
      expect(both.some((res) => res.status === 200)).toBe(true);
      seen.double++;
    } else {
      const res = await answer(token, page.index, page.question.id, body, language);
      // 409 only when the survey finished in the meantime (not here: one portrait never fills).
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  }
}

/** The stored respondents and answer rows of a project, as the brute force reads people. */
async function storedPeople(pid: number): Promise<SampleRespondent[]> {
  const db = server.app.db;
  const people = await db
    .selectFrom('respondents')
    .selectAll()
    .where('project_id', '=', pid)
    .orderBy('id')
    .execute();
  const rows = await db
    .selectFrom('respondent_answers')
    .selectAll()
    .where('project_id', '=', pid)
    .orderBy('id')
    .execute();
  return people.map((p) => ({
    portrait_id: p.portrait_id,
    gender: p.gender,
    age: p.age,
    city: p.city,
    region: p.region,
    education: p.education,
    platform: p.platform,
    status: p.status,
    started_at: Number(p.started_at),
    finished_at: p.finished_at === null ? null : Number(p.finished_at),
    last_question_id: p.last_question_id,
    language: p.language ?? undefined,
    answers: rows
      .filter((a) => a.respondent_id === p.id)
      .map((a) => ({
        question_id: a.question_id,
        answer_id: a.answer_id,
        statement_id: a.statement_id,
        value: a.value === null ? null : Number(a.value),
        text: a.text,
      })),
  }));
}

const byKey = (rows: RecountRow[]) =>
  rows
    .map((r) => JSON.stringify(r))
    .sort()
    .map((s) => JSON.parse(s) as RecountRow);

async function report(pid: number, session: Session, f: ReportFilters): Promise<ReportJson> {
  const q = Object.entries(f)
    .map(([k, v]) => `&${k}=${encodeURIComponent(String(v))}`)
    .join('');
  const res = await server.call('GET', `/project/stats/file?pid=${pid}&type=json${q}`, { session });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ReportJson;
}

describe('the report counters', () => {
  it('equal a recount and a brute-force count after concurrent respondents resend, go Back and fill quotas', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 3, max: 12 }),
        fc.integer({ min: 1, max: 3 }),
        async (seed, count, small) => {
          const r = seeded(seed);
          const { pid, content, session } = await newProject(small);
          const project = { id: pid, status: ProjectStatus.OnRotation, template: 'target' };
          const started: { id: number; token: string }[] = [];
          for (let i = 0; i < count; i++) {
            const s = await startRespondent(server.app.db, {
              project,
              source: 'link',
              // Gender and education sometimes unknown: counted under '' and left out by their filters.
              attributes: {
                gender: pick(r, ['female', 'male', undefined]),
                age: 14 + Math.floor(r() * 25),
                city: pick(r, CITIES),
                education: pick(r, ['secondary', 'higher', undefined]),
              },
            });
            if (s.outcome === 'started') started.push({ id: s.respondentId, token: s.token });
          }
          // Everyone answers at once, each with his own seeded walk.
          const walks = started.map((s, i) => walk(seeded(seed + i + 1), content, s.id, s.token));
          await Promise.all(walks);

          const questions = counterQuestions(content);
          expect(byKey(await counterTotals(server.app.db, pid))).toEqual(
            byKey((await recount(server.app.db, pid, questions)).filter((x) => x.n !== 0)),
          );
          const people = await storedPeople(pid);
          const list = content.questionnaires[0].blocks[0].questions;
          const filters: ReportFilters[] = [
            {},
            ...content.portraits.map((p) => ({ portrait: p.id })),
            { gender: 'female' },
            { education: 'higher' },
            { ageMin: 20, ageMax: 30 },
            { ageMax: 25 },
            { gender: 'male', education: 'secondary', portrait: content.portraits[1].id },
            // A city with anything but an age: the per-city counters (013).
            { city: CITIES[0] },
            { city: CITIES[1], portrait: content.portraits[0].id },
            { city: CITIES[0], gender: 'female' },
            { city: CITIES[2], education: 'higher', gender: 'male' },
            { city: 'Нигде' },
            // A city and an age range, which no counters key: a GROUP BY over the answer rows.
            { city: CITIES[0], ageMin: 20 },
            { city: CITIES[1], ageMax: 30, gender: 'female' },
            // The language of the last page (024's key), alone and with the others.
            { language: 'en' },
            { language: 'ru' },
            { language: 'en', gender: 'female', ageMin: 20 },
            { language: 'ru', portrait: content.portraits[1].id, education: 'higher' },
            { city: CITIES[0], language: 'en' },
            { city: CITIES[1], language: 'ru', ageMax: 30 },
          ];
          for (const f of filters) expectReport(await report(pid, session, f), people, f, list, 'any');

          // The migration's backfill counts the same: rebuilt from the rows, the report is unchanged.
          const before = await report(pid, session, {});
          await rebuildCounters(server.app.db, pid, questions);
          // (Field progress is taken at the moment of each report: its estimates move with the clock.)
          expect({ ...(await report(pid, session, {})), generatedAt: 0, field: undefined }).toEqual({
            ...before,
            generatedAt: 0,
            field: undefined,
          });
        },
      ),
      // Beside the random runs, two crowded ones (12 respondents, one place) so that completions
      // always outnumber the small portrait's places and quotaFull is reached on every run.
      {
        numRuns: 6,
        examples: [
          [7, 12, 1],
          [11, 12, 1],
        ],
      },
    );
    // The runs did reach what they are meant to cover.
    expect(seen.back).toBeGreaterThan(0);
    expect(seen.resend).toBeGreaterThan(0);
    expect(seen.double).toBeGreaterThan(0);
    expect(seen.quotaFull).toBeGreaterThan(0);
    expect(seen.switched).toBeGreaterThan(0);
  });

  it('spread respondents of unknown age over shards, and the report sums them', async () => {
    // A direct link without portraits: anyone may answer, and nothing is known of them but a gender.
    const content: ProjectContent = { ...sampleContent(), portraits: [] };
    const { pid } = await insertSurveyProject(server, content, { template: 'directLink' });
    const row = await server.app.db
      .selectFrom('projects')
      .select('organization_id')
      .where('id', '=', pid)
      .executeTakeFirstOrThrow();
    const session = await server.as(Role.Researcher, { organizationId: row.organization_id! });
    const project = { id: pid, status: ProjectStatus.OnRotation, template: 'directLink' };
    const walks: Promise<void>[] = [];
    for (let i = 0; i < 10; i++) {
      const s = await startRespondent(server.app.db, {
        project,
        source: 'link',
        attributes: i % 2 ? { gender: 'female' } : {},
      });
      if (s.outcome !== 'started') throw new Error(s.outcome);
      walks.push(walk(seeded(500 + i), content, s.respondentId, s.token));
    }
    await Promise.all(walks);
    const shards = await server.app.db
      .selectFrom('report_counts')
      .select('shard')
      .distinct()
      .where('project_id', '=', pid)
      .execute();
    expect(shards.length).toBeGreaterThan(1);
    expect(byKey(await counterTotals(server.app.db, pid))).toEqual(
      byKey((await recount(server.app.db, pid, counterQuestions(content))).filter((x) => x.n !== 0)),
    );
    const people = await storedPeople(pid);
    const list = content.questionnaires[0].blocks[0].questions;
    for (const f of [{}, { gender: 'female' }, { ageMin: 14 }] as ReportFilters[])
      expectReport(await report(pid, session, f), people, f, list, 'any');
  });

  it('are counted by the migration from the answers already stored', async () => {
    const { pid, content, session } = await newProject(5);
    const people = sampleRespondents(21, 40, content);
    await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
    const before = await report(pid, session, {});
    const questions = content.questionnaires[0].blocks[0].questions;
    expectReport(before, people, {}, questions);

    // Back to 009 (no counters) and up again: 011, 013 and 024 build the counters from the stored rows.
    const migrator = new Migrator({
      db: server.app.db,
      provider: { getMigrations: async () => migrationsFor(server.app.dialect) },
    });
    // Back to 023 (counters without the language) and up again: 024 counts each language's rows
    // (the languages themselves, 021's column, stay; below 021 they would be gone).
    expect((await migrator.migrateTo('023-last-question-in-progress')).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(people.some((p) => p.language === 'en')).toBe(true);
    for (const f of [{ language: 'en' }, { language: 'ru', gender: 'female' }] as ReportFilters[])
      expectReport(await report(pid, session, f), people, f, questions);
    expect((await migrator.migrateTo('009-report-index')).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const after = await report(pid, session, {});
    expect({ ...after, generatedAt: 0, funnel: [], field: undefined }).toEqual({
      ...before,
      generatedAt: 0,
      funnel: [],
      field: undefined,
    });
    // 018 puts each respondent whose survey ended at the question of his last answer row; for one
    // still in progress the page shown after it is the flow's decision, which rows cannot tell, so
    // 023 leaves it unknown rather than count him twice at a question he answered.
    const backfilled = people.map((p) => ({
      ...p,
      last_question_id: p.status === 1 ? null : (p.answers.at(-1)?.question_id ?? null),
    }));
    expect(after.funnel).toEqual(
      questions.map((q) => {
        const answered = people.filter((p) => p.answers.some((a) => a.question_id === q.id)).length;
        const here = backfilled.filter((p) => p.last_question_id === q.id);
        const inProgress = here.filter((p) => p.status === 1).length;
        const screenedOut = here.filter((p) => p.status === 3).length;
        return {
          questionId: q.id,
          reached: answered + inProgress,
          answered,
          leftHere: inProgress + screenedOut,
          screenedOut,
        };
      }),
    );
    for (const portrait of content.portraits.map((p) => p.id))
      expectReport(
        await report(pid, session, { portrait }),
        people,
        { portrait },
        questions,
        'written',
        false,
      );
    // 013 counts the cities too.
    for (const city of new Set(people.map((p) => p.city).filter((c) => c !== null)))
      expectReport(await report(pid, session, { city }), people, { city }, questions, 'written', false);
  });
});
