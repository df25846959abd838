import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import ExcelJS from 'exceljs';
import { API, startServer, type Session, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { matches } from './stats-brute';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { EDUCATION_LEVELS } from '../../src/domain/lookups';
import type { ReportFilters } from '../../src/domain/reports';
import type { ProjectContent, Question } from '../../src/domain/content/model';
import { OTHER_ANSWER, OTHER_PLACES, type CrosstabJson } from '../../src/domain/crosstab';
import { writeContent } from '../../server/repos/content';
import { writeSetting } from '../../server/repos/projects';
import {
  insertRespondents,
  sampleContent,
  sampleRespondents,
  SAMPLE_PLACES,
  type SampleAnswer,
  type SampleRespondent,
} from '../../server/reports/sample';
import { counterQuestions } from '../../server/reports/counters';
import { rebuildCounters } from '../../server/reports/recount';

// GET /project/stats/crosstab: the counts against a brute-force count over the same generated
// respondents for random rows, columns and filters; a fewAnswers row, a matrix statement, every
// column attribute, numbers by group; the downloads; the 400s; who may read. Runs on SQLite, and on
// PostgreSQL with TEST_DATABASE_URL. The statistics against PSPP: crosstab-pspp.test.ts.

let server: TestServer;
let owner: Session;
let pid: number;
let orgId: number;
const content: ProjectContent = sampleContent();
const questions = content.questionnaires[0].blocks[0].questions;
const byCategory = (c: Question['category']) => questions.find((q) => q.category === c)!;
const matrix = byCategory('matrix');

beforeAll(async () => {
  server = await startServer();
  orgId = await server.createOrganization('Исследования');
  owner = await server.as(Role.Researcher, { organizationId: orgId });
  pid = await insertProject(server, orgId, { status: ProjectStatus.OnRotation, name: 'Сравнение' });
  expect(await writeContent(server.app.db, pid, 0, content, owner.user.id)).toBe(1);
  await writeSetting(server.app.db, pid, 'set_report_fill_online', true);
});
afterAll(() => server?.close());

async function replaceRespondents(list: SampleRespondent[]) {
  await server.app.db.deleteFrom('respondents').where('project_id', '=', pid).execute();
  await rebuildCounters(server.app.db, pid, counterQuestions(content));
  await insertRespondents(server.app.db, pid, content.questionnaires[0].id, list);
}

function query(f: ReportFilters): string {
  return Object.entries(f)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `&${k}=${encodeURIComponent(String(v))}`)
    .join('');
}

async function crosstab(rows: string, cols: string, f: ReportFilters = {}, session = owner) {
  const res = await server.call(
    'GET',
    `/project/stats/crosstab?pid=${pid}&rows=${encodeURIComponent(rows)}&cols=${cols}${query(f)}`,
    { session },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as CrosstabJson;
}

// The brute force: what each respondent puts in rows and in columns, counted the plainest way.

const BANDS: [string, number][] = [
  ['14-17', 17],
  ['18-24', 24],
  ['25-34', 34],
  ['35-44', 44],
  ['45-54', 54],
  ['55+', Infinity],
];

function colOf(p: SampleRespondent, cols: string): string | null {
  switch (cols) {
    case 'gender':
      return p.gender;
    case 'age':
      return p.age === null ? null : BANDS.find(([, max]) => p.age! <= max)![0];
    case 'city':
      return p.city;
    case 'education':
      return p.education;
    case 'portrait':
      return p.portrait_id;
  }
  const a = p.answers.find((x) => x.question_id === cols && x.statement_id === null);
  return a ? (a.answer_id ?? OTHER_ANSWER) : null;
}

function rowKeysOf(p: SampleRespondent, rows: string): string[] {
  const [qid, sid] = rows.split(':');
  const q = questions.find((x) => x.id === qid)!;
  const mine: SampleAnswer[] = p.answers.filter(
    (a) => a.question_id === qid && (sid === undefined ? a.statement_id === null : a.statement_id === sid),
  );
  if (q.category === 'cityAuto' || q.category === 'regionAuto') return mine.map((a) => a.text!);
  if (['starRating', 'slider', 'nps'].includes(q.category)) return mine.map((a) => String(a.value));
  return mine.map((a) => a.answer_id ?? OTHER_ANSWER);
}

function expectCrosstab(
  got: CrosstabJson,
  people: SampleRespondent[],
  rows: string,
  cols: string,
  f: ReportFilters,
) {
  const counts = new Map<string, Map<string, number>>();
  const bases = new Map<string, number>();
  for (const p of people.filter((x) => matches(x, f))) {
    const c = colOf(p, cols);
    const keys = rowKeysOf(p, rows);
    if (c === null || keys.length === 0) continue;
    bases.set(c, (bases.get(c) ?? 0) + 1);
    for (const k of keys) {
      const row = counts.get(k) ?? new Map<string, number>();
      row.set(c, (row.get(c) ?? 0) + 1);
      counts.set(k, row);
    }
  }
  const listedCols = new Set(got.cols.map((c) => c.id));
  const listedRows = new Set(got.rows.map((r) => r.id));
  const inCol = (id: string, c: string) => (id === OTHER_PLACES ? !listedCols.has(c) : id === c);
  const inRow = (id: string, r: string) => (id === OTHER_PLACES ? !listedRows.has(r) : id === r);
  // Every column with anyone in it is shown (or folded into "other cities").
  for (const c of bases.keys()) expect(listedCols.has(c) || listedCols.has(OTHER_PLACES), c).toBe(true);
  got.cols.forEach((col, j) => {
    const base = [...bases].filter(([c]) => inCol(col.id, c)).reduce((s, [, n]) => s + n, 0);
    expect(col.total, `base of ${col.id}`).toBe(base);
    expect(got.totals.cols[j]).toBe(base);
    expect(col.smallBase).toBe(base < 30);
    got.rows.forEach((row, i) => {
      let n = 0;
      for (const [r, byCol] of counts)
        if (inRow(row.id, r)) for (const [c, k] of byCol) if (inCol(col.id, c)) n += k;
      expect(got.cells[i][j].count, `${row.id} × ${col.id}`).toBe(n);
      expect(got.cells[i][j].colPercent).toBe(base ? Math.round((n * 1000) / base) / 10 : 0);
    });
  });
  expect(got.totals.all).toBe([...bases.values()].reduce((s, n) => s + n, 0));
  expect(got.cols.map((c) => c.letter)).toEqual(got.cols.map((_, j) => String.fromCharCode(65 + j)));
}

const ROWS = [
  ...questions
    .filter((q) =>
      [
        'oneAnswer',
        'fewAnswers',
        'screening',
        'qualification',
        'cityAuto',
        'regionAuto',
        'starRating',
        'slider',
        'nps',
      ].includes(q.category),
    )
    .map((q) => q.id),
  ...matrix.statements.map((s) => `${matrix.id}:${s.id}`),
];
const COLS = [
  ...questions
    .filter((q) => ['oneAnswer', 'screening', 'qualification'].includes(q.category))
    .map((q) => q.id),
  'gender',
  'age',
  'city',
  'education',
  'portrait',
];

const filtersArb: fc.Arbitrary<ReportFilters> = fc.record(
  {
    gender: fc.constantFrom('male', 'female'),
    ageMin: fc.integer({ min: 14, max: 40 }),
    ageMax: fc.integer({ min: 41, max: 99 }),
    city: fc.constantFrom(...SAMPLE_PLACES.map((p) => p.city)),
    education: fc.constantFrom(...EDUCATION_LEVELS),
    portrait: fc.constantFrom(...content.portraits.map((p) => p.id)),
  },
  { requiredKeys: [] },
);

describe('the crosstab', () => {
  it('counts what a brute force counts, for random rows, columns and filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 80 }),
        fc.array(fc.tuple(fc.constantFrom(...ROWS), fc.constantFrom(...COLS), filtersArb), {
          minLength: 1,
          maxLength: 6,
        }),
        async (seed, count, picks) => {
          const people = sampleRespondents(seed, count, content);
          await replaceRespondents(people);
          for (const [rows, cols, f] of picks) {
            if (rows === cols) continue;
            expectCrosstab(await crosstab(rows, cols, f), people, rows, cols, f);
          }
        },
      ),
      { numRuns: 10 },
    );
  });

  it('covers every column attribute, a fewAnswers row and a matrix statement', async () => {
    const people = sampleRespondents(42, 400, content);
    await replaceRespondents(people);
    const few = byCategory('fewAnswers');
    for (const cols of ['gender', 'age', 'city', 'education', 'portrait']) {
      const got = await crosstab(few.id, cols);
      expectCrosstab(got, people, few.id, cols, {});
      // One respondent counts in several rows: each answer is its own 2 × k test.
      expect(got.multiple).toBe(true);
      expect(got.test).toBeNull();
      expect(got.rowTests).toHaveLength(got.rows.length);
      expect(got.rowTests![0]).toMatchObject({ kind: 'chi-square', df: got.cols.length - 1 });
      const columnSum = got.cells.reduce((s, r) => s + r[0].count, 0);
      expect(columnSum).toBeGreaterThan(got.cols[0].total);
    }
    const age = await crosstab(few.id, 'age');
    expect(age.cols.map((c) => c.id)).toEqual(['14-17', '18-24', '25-34', '35-44', '45-54', '55+']);
    expect(age.cols[0].text).toBe('14–17 years');
    const gender = await crosstab(few.id, 'gender');
    expect(gender.cols.map((c) => c.text)).toEqual(['Men', 'Women']);

    const s = matrix.statements[1];
    const m = await crosstab(`${matrix.id}:${s.id}`, 'gender');
    expectCrosstab(m, people, `${matrix.id}:${s.id}`, 'gender', {});
    expect(m.rowsOf.statement).toEqual({ id: s.id, text: s.text });
    expect(m.rows.map((r) => r.id)).toEqual(matrix.answers.map((a) => a.id));
    expect(m.test).toMatchObject({ kind: 'chi-square', df: 2 });
    expect(m.test!.p).toBeGreaterThan(0);
  });

  it('folds cities past the ten most frequent into "other cities"', async () => {
    const base = sampleRespondents(9, 120, content);
    const people = base.map((p, i) => ({ ...p, city: `Город ${i % 14}` }));
    await replaceRespondents(people);
    const one = byCategory('oneAnswer');
    const got = await crosstab(one.id, 'city');
    expect(got.cols).toHaveLength(11);
    expect(got.cols[10]).toMatchObject({ id: OTHER_PLACES, text: 'Other cities' });
    expectCrosstab(got, people, one.id, 'city', {});
  });

  it('gives numbers by group: Welch’s t for two columns, ANOVA for more, NPS per column', async () => {
    const people = sampleRespondents(5, 300, content);
    await replaceRespondents(people);
    const nps = byCategory('nps');
    const got = await crosstab(nps.id, 'gender');
    expect(got.numbers!.test).toMatchObject({ kind: 'welch-t' });
    got.cols.forEach((c, j) => {
      const values = people
        .filter((p) => p.gender === c.id)
        .flatMap((p) => p.answers.filter((a) => a.question_id === nps.id).map((a) => a.value!));
      const g = got.numbers!.cols[j];
      expect(g.n).toBe(values.length);
      const mean = values.reduce((s, v) => s + v, 0) / values.length;
      expect(g.mean).toBeCloseTo(mean, 9);
      const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
      expect(g.sd).toBeCloseTo(sd, 9);
      expect(g.ci95![0]).toBeLessThan(mean);
      const promoters = values.filter((v) => v >= 9).length;
      const detractors = values.filter((v) => v <= 6).length;
      expect(g.nps).toBeCloseTo(((promoters - detractors) * 100) / values.length, 9);
    });
    const range = byCategory('fromTo');
    const byAge = await crosstab(range.id, 'age');
    expect(byAge.rows).toEqual([]);
    expect(byAge.numbers!.test).toMatchObject({ kind: 'anova' });
    const n = people.filter(
      (p) => p.answers.some((a) => a.question_id === range.id) && p.age !== null,
    ).length;
    expect(byAge.numbers!.total.n).toBe(n);
    expect(byAge.totals.all).toBe(n);
  });

  it('marks a base under 30', async () => {
    await replaceRespondents(sampleRespondents(3, 20, content));
    const got = await crosstab(byCategory('oneAnswer').id, 'gender');
    expect(got.smallBase).toBe(true);
    expect(got.cols.every((c) => c.smallBase)).toBe(true);
  });

  it('downloads as XLSX and CSV with the same rows', async () => {
    await replaceRespondents(sampleRespondents(8, 60, content));
    const one = byCategory('oneAnswer');
    const json = await crosstab(one.id, 'gender');
    const url = `${server.url}${API}/project/stats/crosstab?pid=${pid}&rows=${one.id}&cols=gender`;
    const headers = { 'x-auth-token': owner.accessToken, 'accept-language': 'en' };
    const xlsx = await fetch(`${url}&format=xlsx`, { headers });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toMatch(/attachment; filename=/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await xlsx.arrayBuffer());
    const ws = wb.worksheets[0];
    const lines: unknown[][] = [];
    ws.eachRow((r) => lines.push((r.values as unknown[]).slice(1)));
    const first = lines.find((l) => l[0] === json.rows[0].text)!;
    expect(first[1]).toBe(json.cells[0][0].count);
    expect(first[2]).toBe(json.cells[0][0].colPercent);
    const csv = await fetch(`${url}&format=csv`, { headers });
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const text = await csv.text();
    expect(text).toContain(`${json.rows[0].text},${json.cells[0][0].count},${json.cells[0][0].colPercent}`);
    expect(text).toContain('chi-square');
  });
});

describe('refusals', () => {
  it('answers 400 with a message for nonsense pairs and bad parameters', async () => {
    const few = byCategory('fewAnswers');
    const one = byCategory('oneAnswer');
    const cases: [string, string, RegExp][] = [
      [`rows=${one.id}&cols=${few.id}`, 'cols', /multiple-choice question cannot be columns/],
      [`rows=${one.id}&cols=${one.id}`, 'cols', /cannot be compared with itself/],
      [`rows=${byCategory('open').id}&cols=gender`, 'rows', /cannot be rows/],
      [`rows=${byCategory('sortable').id}&cols=gender`, 'rows', /cannot be rows/],
      [`rows=${one.id}&cols=${byCategory('open').id}`, 'cols', /Only a single-choice question/],
      [`rows=${one.id}&cols=${byCategory('nps').id}`, 'cols', /Only a single-choice question/],
      [`rows=nope&cols=gender`, 'rows', /No such question/],
      [`rows=${one.id}:s1&cols=gender`, 'rows', /No such question/],
      [`rows=${matrix.id}:nope&cols=gender`, 'rows', /No such question/],
      [`rows=${one.id}&cols=nope`, 'cols', /No such question or attribute/],
      [`rows=a%20b&cols=gender`, 'rows', /rows/],
      [`rows=${one.id}&cols=gender&ageMin=5`, 'ageMin', /ageMin/],
      [`rows=${one.id}&cols=gender&ageMin=50&ageMax=20`, 'ageMax', /ageMax/],
      [`rows=${one.id}&cols=gender&ageMax=99999999999`, 'ageMax', /ageMax/],
      [`rows=${one.id}&cols=gender&city=a%00b`, 'city', /city/],
      [`rows=${one.id}&cols=gender&format=pdf`, 'format', /format/],
      [`rows=${one.id}`, 'cols', /cols/],
    ];
    for (const [q, field, message] of cases) {
      const res = await server.call('GET', `/project/stats/crosstab?pid=${pid}&${q}`, { session: owner });
      expect(res.status, q).toBe(400);
      expect(res.body.field, q).toBe(field);
      expect(res.body.message, q).toMatch(message);
    }
    const big = await server.call('GET', `/project/stats/crosstab?pid=99999999999&rows=a&cols=gender`, {
      session: owner,
    });
    expect(big.status).toBe(400);
    const ru = await server.call('GET', `/project/stats/crosstab?pid=${pid}&rows=${one.id}&cols=${few.id}`, {
      session: owner,
      locale: 'ru',
    });
    expect(ru.body.message).toMatch(/несколькими ответами/);
  });

  it('is read by whoever may read the report; anyone else gets the project’s own 404', async () => {
    const path = `/project/stats/crosstab?pid=${pid}&rows=${byCategory('oneAnswer').id}&cols=gender`;
    expect((await server.call('GET', path)).status).toBe(401);
    const stranger = await server.as(Role.Researcher);
    const refused = await server.call('GET', path, { session: stranger });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(
      (await server.call('GET', `/project?pid=${pid}`, { session: stranger })).body,
    );
    expect((await server.call('GET', path, { session: await server.as(Role.Issuer) })).status).toBe(404);
    for (const role of [Role.Administrator, Role.Moderator]) {
      expect((await server.call('GET', path, { session: await server.as(role) })).status).toBe(200);
    }
    const colleague = await server.as(Role.DemoResearcher, { organizationId: orgId });
    expect((await server.call('GET', path, { session: colleague })).status).toBe(200);
    // While the survey runs with the online report off, the crosstab waits as the report does.
    await writeSetting(server.app.db, pid, 'set_report_fill_online', false);
    const hidden = await server.call('GET', path, { session: owner });
    expect(hidden.status).toBe(409);
    expect(hidden.body.message).toBe('The report will be available when the survey finishes');
    await writeSetting(server.app.db, pid, 'set_report_fill_online', true);
  });
});
