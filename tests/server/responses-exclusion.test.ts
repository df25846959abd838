import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startServer, type Session, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { expectReport, matches } from './stats-brute';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import type { ProjectContent } from '../../src/domain/content/model';
import type { ReportFilters, ReportJson } from '../../src/domain/reports';
import type { CrosstabJson } from '../../src/domain/crosstab';
import { OTHER_ANSWER } from '../../src/domain/crosstab';
import { writeContent } from '../../server/repos/content';
import {
  insertRespondents,
  sampleContent,
  sampleRespondents,
  SAMPLE_PLACES,
  type SampleRespondent,
} from '../../server/reports/sample';
import { counterQuestions } from '../../server/reports/counters';
import { counterTotals, recount, type RecountRow } from '../../server/reports/recount';
import { foldsDone, SHIFTED, shiftCounters } from '../../server/reports/counter-shift';
import { withEnglish } from '../../server/reports/sample-english';

// Issue 31: excluded respondents leave every figure at once, and restored ones come back. Random
// runs of exclusions and restores, by ids and by filters, through POST /project/respondents/exclusion;
// after each run the report (its counters, the live GROUP BY of a city with an age range, the open
// answers, the funnel and the timing), a Compare table and the counters themselves equal a
// brute-force count over the respondents not excluded. The questionnaire is in Russian and English
// (every fourth respondent answered in English) and the language is among the filters compared, and
// among those that exclude: the counters and their deltas are keyed by it (024). Runs on SQLite, and
// on PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
let owner: Session;
let orgId: number;
const content: ProjectContent = withEnglish(sampleContent());
const questions = content.questionnaires[0].blocks[0].questions;
const oneAnswer = questions.find((q) => q.category === 'oneAnswer')!;
const screening = questions.find((q) => q.category === 'screening')!;

beforeAll(async () => {
  server = await startServer();
  orgId = await server.createOrganization('Исследования');
  owner = await server.as(Role.Researcher, { organizationId: orgId });
});
afterAll(() => server?.close());

async function newProject(people: SampleRespondent[]) {
  const pid = await insertProject(server, orgId, { status: ProjectStatus.OnRotation, name: 'Исключения' });
  expect(await writeContent(server.app.db, pid, 0, content, owner.user.id)).toBe(1);
  const ids = await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
  return { pid, ids };
}

function query(f: object): string {
  return Object.entries(f)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `&${k}=${encodeURIComponent(String(v))}`)
    .join('');
}

async function report(pid: number, f: ReportFilters): Promise<ReportJson> {
  const res = await server.call('GET', `/project/stats/file?pid=${pid}&type=json${query(f)}`, {
    session: owner,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ReportJson;
}

async function crosstab(pid: number, rows: string, cols: string, f: ReportFilters = {}) {
  const res = await server.call(
    'GET',
    `/project/stats/crosstab?pid=${pid}&rows=${rows}&cols=${cols}${query(f)}`,
    { session: owner },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as CrosstabJson;
}

/** The Compare table of a choice question by gender or by another choice question, counted by hand. */
function expectCrosstab(got: CrosstabJson, people: SampleRespondent[], rows: string, cols: string) {
  const colOf = (p: SampleRespondent) => {
    if (cols === 'gender') return p.gender;
    const a = p.answers.find((x) => x.question_id === cols && x.statement_id === null);
    return a ? (a.answer_id ?? OTHER_ANSWER) : null;
  };
  const counts = new Map<string, number>();
  let all = 0;
  for (const p of people.filter((x) => !x.excluded)) {
    const c = colOf(p);
    const keys = p.answers.filter((a) => a.question_id === rows).map((a) => a.answer_id ?? OTHER_ANSWER);
    if (c === null || keys.length === 0) continue;
    all++;
    for (const k of keys) counts.set(`${k}\u0001${c}`, (counts.get(`${k}\u0001${c}`) ?? 0) + 1);
  }
  expect(got.totals.all).toBe(all);
  got.rows.forEach((row, i) =>
    got.cols.forEach((col, j) =>
      expect(got.cells[i][j].count, `${row.id} × ${col.id}`).toBe(
        counts.get(`${row.id}\u0001${col.id}`) ?? 0,
      ),
    ),
  );
}

const byKey = (rows: RecountRow[]) =>
  rows
    .map((r) => JSON.stringify(r))
    .sort()
    .map((s) => JSON.parse(s) as RecountRow);

type Op =
  | { kind: 'ids'; excluded: boolean; picks: number[] }
  | { kind: 'filter'; excluded: boolean; filter: ReportFilters };

const filterArb: fc.Arbitrary<ReportFilters> = fc.record(
  {
    gender: fc.constantFrom('male', 'female'),
    ageMin: fc.integer({ min: 14, max: 40 }),
    ageMax: fc.integer({ min: 41, max: 70 }),
    city: fc.constantFrom(...SAMPLE_PLACES.slice(0, 3).map((p) => p.city)),
    portrait: fc.constantFrom(...content.portraits.map((p) => p.id)),
    language: fc.constantFrom('ru', 'en'),
  },
  { requiredKeys: [] },
);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('ids' as const),
    excluded: fc.boolean(),
    picks: fc.array(fc.nat(1000), { minLength: 1, maxLength: 8 }),
  }),
  fc.record({ kind: fc.constant('filter' as const), excluded: fc.boolean(), filter: filterArb }),
);

/** Applies one operation through the API and to the brute force's copy of who is excluded. */
async function apply(pid: number, ids: number[], people: SampleRespondent[], op: Op) {
  const ended = people.map((_, i) => i).filter((i) => people[i].status !== 1);
  if (op.kind === 'ids') {
    if (ended.length === 0) return;
    const chosen = [...new Set(op.picks.map((k) => ended[k % ended.length]))];
    const res = await server.call('POST', '/project/respondents/exclusion', {
      session: owner,
      body: { pid, ids: chosen.map((i) => ids[i]), excluded: op.excluded, reason: 'Проверка' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const changing = chosen.filter((i) => !!people[i].excluded !== op.excluded);
    expect(res.body.affected).toBe(changing.length);
    for (const i of chosen) people[i].excluded = op.excluded;
    return;
  }
  const filter = Object.fromEntries(Object.entries(op.filter).map(([k, v]) => [k, String(v)]));
  const res = await server.call('POST', '/project/respondents/exclusion', {
    session: owner,
    body: { pid, filter, excluded: op.excluded, reason: 'Фильтр' },
  });
  const matching = people.filter((p) => matches(p, op.filter));
  if (matching.length === 0) {
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('nothing-matches');
    return;
  }
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // Respondents still answering are passed over by an exclusion (their answers are not complete).
  const changing = matching.filter((p) => !!p.excluded !== op.excluded && (!op.excluded || p.status !== 1));
  expect(res.body.affected).toBe(changing.length);
  for (const p of changing) p.excluded = op.excluded;
}

async function expectEverything(pid: number, people: SampleRespondent[], extra: ReportFilters) {
  const questionsOf = counterQuestions(content);
  expect(byKey(await counterTotals(server.app.db, pid))).toEqual(
    byKey((await recount(server.app.db, pid, questionsOf)).filter((x) => x.n !== 0)),
  );
  const city = SAMPLE_PLACES[0].city;
  // The counters (no filter, a filter, a language), the per-city counters (with a language too), and
  // the GROUP BY over the answer rows.
  for (const f of [
    {},
    extra,
    { language: 'en' },
    { language: 'ru', gender: 'female' },
    { city },
    { city, language: 'en' },
    { city, ageMin: 20, ageMax: 45 },
  ] as ReportFilters[])
    expectReport(await report(pid, f), people, f, questions);
  expectCrosstab(await crosstab(pid, oneAnswer.id, 'gender'), people, oneAnswer.id, 'gender');
  expectCrosstab(await crosstab(pid, oneAnswer.id, screening.id), people, oneAnswer.id, screening.id);
}

describe('excluding and restoring respondents', () => {
  it('keeps the report, a Compare table and the funnel equal to a brute force over the respondents not excluded', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.array(opArb, { minLength: 1, maxLength: 6 }),
        filterArb,
        async (seed, ops, extra) => {
          const people = sampleRespondents(seed, 40, content);
          const { pid, ids } = await newProject(people);
          for (const op of ops) await apply(pid, ids, people, op);
          await expectEverything(pid, people, extra);
          // Folded into the counters in the background: the same counts, and no delta left.
          await foldsDone(server.app.db);
          await expectEverything(pid, people, {});
          for (const table of ['report_count_deltas', 'report_city_count_deltas'] as const)
            expect(
              await server.app.db.selectFrom(table).select('n').where('project_id', '=', pid).execute(),
            ).toEqual([]);
        },
      ),
      { numRuns: 8 },
    );
  });

  it('takes a whole filter out and puts it back: the report is as before', async () => {
    const people = sampleRespondents(77, 60, content);
    const { pid } = await newProject(people);
    const before = await report(pid, {});
    const res = await server.call('POST', '/project/respondents/exclusion', {
      session: owner,
      body: { pid, filter: { gender: 'female' }, excluded: true, reason: 'Только мужчины' },
    });
    expect(res.status).toBe(200);
    const women = people.filter((p) => p.gender === 'female' && p.status !== 1);
    expect(res.body.affected).toBe(women.length);
    for (const p of women) p.excluded = true;
    const during = await report(pid, {});
    expectReport(during, people, {}, questions);
    expect(during.respondents.excluded).toBe(women.length);
    expect(during.respondents.completed).toBeLessThan(before.respondents.completed);
    const back = await server.call('POST', '/project/respondents/exclusion', {
      session: owner,
      body: { pid, filter: { excluded: 'only' }, excluded: false, reason: '' },
    });
    expect(back.status).toBe(200);
    expect(back.body.affected).toBe(women.length);
    expect({ ...(await report(pid, {})), generatedAt: 0, field: undefined }).toEqual({
      ...before,
      respondents: { ...before.respondents, excluded: 0 },
      generatedAt: 0,
      field: undefined,
    });
  });

  it('deletes a project with its counters’ deltas, and leaves another project’s deltas alone', async () => {
    // The deltas tables have no foreign key to the project (migration 024): the deletion removes them.
    const admin = await server.as(Role.Administrator, { organizationId: null });
    const doomed = await newProject(sampleRespondents(5, 20, content));
    const kept = await newProject(sampleRespondents(6, 20, content));
    const deltas = async (pid: number) =>
      (
        await Promise.all(
          (['report_count_deltas', 'report_city_count_deltas'] as const).map((t) =>
            server.app.db.selectFrom(t).select('n').where('project_id', '=', pid).execute(),
          ),
        )
      ).flat().length;
    // Deltas as an exclusion leaves them until its fold has run (the fold of a process that stopped
    // has not): written in the transaction that excludes, without letting the background fold go first.
    let ended = 0;
    for (const { pid } of [doomed, kept])
      await server.app.db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('respondents')
          .set({ excluded: 1 })
          .where('project_id', '=', pid)
          .where('status', '<>', 1)
          .returning([...SHIFTED])
          .execute();
        ended = moved.length;
        await shiftCounters(trx, pid, counterQuestions(content), moved, -1);
      });
    expect(await deltas(doomed.pid)).toBeGreaterThan(0);
    const before = await deltas(kept.pid);
    expect(before).toBeGreaterThan(0);
    const res = await server.call('DELETE', `/project?id=${doomed.pid}`, { session: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await deltas(doomed.pid)).toBe(0);
    expect(await deltas(kept.pid)).toBe(before);
    // The other project's report is still its counters plus its deltas: everyone excluded.
    const left = await report(kept.pid, {});
    expect(left.respondents.excluded).toBe(ended);
  });
});
