import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { hasPspp, psppRun, psppTables } from './pspp';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import type { ProjectContent, Question } from '../../src/domain/content/model';
import type { CrosstabJson } from '../../src/domain/crosstab';
import type { ChiSquare } from '../../src/domain/statistics';
import projectsRu from '../../src/i18n/ru/projects';
import { writeContent } from '../../server/repos/content';
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';

// End to end against an independent package (issue 23, part 6): a generated survey stored through
// the server, its .sav downloaded (GET /project/stats/file?type=stats&format=sav) and analysed by
// PSPP from that file alone (GET FILE, then CROSSTABS /STATISTICS=CHISQ, T-TEST, ONEWAY, with
// SELECT IF for the report's filters), against GET /project/stats/crosstab for the same pairs and
// filters: the counts by PSPP's value labels, the chi-square, df and p, Welch's t, df and p, the
// ANOVA's F, df1, df2 and p, to 1e-6 relative; a fewAnswers question's per-answer 2 × k tests
// against CROSSTABS of its dichotomies. PSPP prints statistics with 14 decimals (SET FORMAT) but
// p-values with 3, so the p-values come from a second run: PSPP's own distribution functions
// (SIG.CHISQ, CDF.T, SIG.F) on PSPP's own statistics, printed in full. crosstab-pspp.test.ts checks
// the statistics on inline data, stats-sav.test.ts the file's dictionary and cases.
// Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.

const REL = 1e-6;
let server: TestServer;
let owner: Session;
let pid: number;
let sav: Buffer;
const content: ProjectContent = sampleContent();
const questions = content.questionnaires[0].blocks[0].questions;
const byCategory = (c: Question['category']) => questions.find((q) => q.category === c)!;
/** The file's variable of a single-valued question: Q<position>. */
const varOf = (q: Question) => `Q${questions.indexOf(q) + 1}`;
/** The crosstab's report filters and the same as PSPP's SELECT IF (GENDER 2 = female, as the file labels it). */
const FILTERS = {
  none: { query: '', select: '' },
  female: { query: '&gender=female', select: 'SELECT IF GENDER = 2.\n' },
  adults: { query: '&ageMin=20', select: 'SELECT IF AGE >= 20.\n' },
} as const;
type Filter = keyof typeof FILTERS;
/** The crosstab's age bands (AGE_BANDS) as a variable PSPP derives from AGE. */
const BANDS =
  'RECODE AGE (LO THRU 17=1) (18 THRU 24=2) (25 THRU 34=3) (35 THRU 44=4) (45 THRU 54=5) (55 THRU HI=6) INTO BAND.\n';

beforeAll(async () => {
  server = await startServer();
  const orgId = await server.createOrganization();
  owner = await server.as(Role.Researcher, { organizationId: orgId });
  pid = await insertProject(server, orgId, { status: ProjectStatus.SurveyFinished, name: 'PSPP' });
  expect(await writeContent(server.app.db, pid, 0, content, owner.user.id)).toBe(1);
  const people = sampleRespondents(2026, 600, content);
  await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
  // The whole file once; the filters are PSPP's own (SELECT IF), not the download's.
  const res = await fetch(
    `${server.url}/api/v1/service/project/stats/file?pid=${pid}&type=stats&format=sav`,
    {
      headers: {
        'x-auth-token': owner.accessToken,
        'x-refresh-token': owner.refreshToken,
        'accept-language': 'ru',
      },
    },
  );
  expect(res.status).toBe(200);
  sav = Buffer.from(await res.arrayBuffer());
});
afterAll(() => server?.close());

async function crosstab(rows: string, cols: string, filter: Filter = 'none'): Promise<CrosstabJson> {
  const res = await server.call(
    'GET',
    `/project/stats/crosstab?pid=${pid}&rows=${rows}&cols=${cols}${FILTERS[filter].query}`,
    { session: owner, locale: 'ru' },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as CrosstabJson;
}

/** PSPP's tables (by title) for the syntax run on our file, the filter's SELECT IF first. */
async function pspp(syntax: string, filter: Filter = 'none'): Promise<Map<string, string[][]>> {
  return psppTables(await psppRun(sav, `SET FORMAT=F24.14.\n${BANDS}${FILTERS[filter].select}${syntax}`));
}

function table(tables: Map<string, string[][]>, title: string | RegExp): string[][] {
  const found = [...tables].find(([k]) => (typeof title === 'string' ? k === title : title.test(k)));
  expect(found, `${String(title)} in ${[...tables.keys()].join(' | ')}`).toBeDefined();
  return found![1];
}

/** The line of a table whose cells include `label`, from that cell on. */
function line(rows: string[][], label: string): string[] {
  const found = rows.find((r) => r.includes(label));
  expect(found, label).toBeDefined();
  return found!.slice(found!.indexOf(label));
}

type PRequest = ['chi' | 't' | 'f', number, number, number?];
/** PSPP's p-values for its own statistics, from its distribution functions, in one run. */
async function psppP(requests: PRequest[]): Promise<number[]> {
  const kinds = { chi: 1, t: 2, f: 3 };
  const data = requests.map(([k, a, b, c]) => `${kinds[k]} ${a} ${b} ${c ?? 0}`).join('\n');
  const out = await psppRun(
    sav,
    `DATA LIST LIST /k a b c.\nBEGIN DATA\n${data}\nEND DATA.\n` +
      'DO IF k = 1.\nCOMPUTE p = SIG.CHISQ(a, b).\nELSE IF k = 2.\nCOMPUTE p = 2 * CDF.T(-ABS(a), b).\n' +
      'ELSE.\nCOMPUTE p = SIG.F(a, b, c).\nEND IF.\nFORMATS p (E40.16).\nLIST p.\n',
  );
  const rows = table(psppTables(out), 'Data List').slice(1);
  expect(rows).toHaveLength(requests.length);
  return rows.map((r) => Number(r[r.length - 1]));
}

const close = (ours: number, theirs: number, what: string) =>
  expect(
    Math.abs(ours - theirs) / Math.max(Math.abs(theirs), 1e-300),
    `${what}: ${ours} vs ${theirs}`,
  ).toBeLessThan(REL);

/**
 * PSPP's crosstabulation: its column labels, and per row the label and counts (the empty rows and
 * columns PSPP never shows, as it counts only the values present).
 */
function psppCounts(rows: string[][]) {
  const cols = rows[1].slice(3, -1);
  const body = rows.filter((r) => r[2] === 'Count' && r[0] !== 'Total');
  return { cols, rows: body.map((r) => r[1]), cells: body.map((r) => r.slice(3, -1).map(Number)) };
}

/**
 * A column's label as the file's value labels say it: the table's headings name the genders as
 * groups ("Мужчины"), the file's GENDER labels as values ("Мужской").
 */
const fileLabel = (got: CrosstabJson, col: CrosstabJson['cols'][number]) =>
  got.colsOf.id === 'gender' ? projectsRu.gender[col.id as 'male' | 'female'] : col.text;

/** Our table without the rows and columns nobody is in, as PSPP shows it. */
function ourCounts(got: CrosstabJson) {
  const counts = got.cells.map((r) => r.map((c) => c.count));
  const keepRows = counts.map((r) => r.some((n) => n > 0));
  const keepCols = got.cols.map((_, j) => counts.some((r) => r[j] > 0));
  return {
    cols: got.cols.filter((_, j) => keepCols[j]).map((c) => fileLabel(got, c)),
    rows: got.rows.filter((_, i) => keepRows[i]).map((r) => r.text),
    cells: counts.filter((_, i) => keepRows[i]).map((r) => r.filter((_, j) => keepCols[j])),
  };
}

function pearson(tables: Map<string, string[][]>) {
  const row = line(table(tables, 'Chi-Square Tests'), 'Pearson Chi-Square');
  return { statistic: Number(row[1]), df: Number(row[2]) };
}

describe.skipIf(!hasPspp)('our statistics against PSPP on our own .sav', () => {
  it('crosstabs: counts by value label, chi-square, df and p equal CROSSTABS /STATISTICS=CHISQ', async () => {
    const oneAnswer = byCategory('oneAnswer');
    const qualification = byCategory('qualification');
    const screening = byCategory('screening');
    const star = byCategory('starRating');
    const matrix = byCategory('matrix');
    const statement = (k: number) => `${matrix.id}:${matrix.statements[k].id}`;
    // [rows, cols, PSPP's rows, PSPP's cols, filter, whether labels are the file's value labels]
    const cases: [string, string, string, string, Filter, boolean][] = [
      [oneAnswer.id, 'gender', varOf(oneAnswer), 'GENDER', 'none', true],
      [oneAnswer.id, qualification.id, varOf(oneAnswer), varOf(qualification), 'none', true],
      [screening.id, oneAnswer.id, varOf(screening), varOf(oneAnswer), 'none', true],
      [qualification.id, 'education', varOf(qualification), 'EDUC', 'none', true],
      [star.id, 'age', varOf(star), 'BAND', 'none', false],
      [statement(0), 'gender', `${varOf(matrix)}_1`, 'GENDER', 'none', true],
      [statement(2), qualification.id, `${varOf(matrix)}_3`, varOf(qualification), 'adults', true],
      [oneAnswer.id, qualification.id, varOf(oneAnswer), varOf(qualification), 'female', true],
      [qualification.id, 'gender', varOf(qualification), 'GENDER', 'adults', true],
    ];
    const ours: ChiSquare[] = [];
    const theirs: { statistic: number; df: number }[] = [];
    for (const [rows, cols, r, c, filter, labelled] of cases) {
      const what = `${r} × ${c} (${filter})`;
      const got = await crosstab(rows, cols, filter);
      const tables = await pspp(`CROSSTABS /TABLES=${r} BY ${c} /STATISTICS=CHISQ.\n`, filter);
      const counts = psppCounts(table(tables, / × /));
      const mine = ourCounts(got);
      expect(mine.cells, what).toEqual(counts.cells);
      if (labelled) expect([mine.rows, mine.cols], what).toEqual([counts.rows, counts.cols]);
      const valid = line(table(tables, 'Chi-Square Tests'), 'N of Valid Cases');
      expect(got.totals.all, what).toBe(Number(valid[1]));
      expect(got.test, what).toBeTruthy();
      ours.push(got.test!);
      theirs.push(pearson(tables));
    }
    const ps = await psppP(theirs.map((t) => ['chi', t.statistic, t.df]));
    cases.forEach(([, , r, c, filter], i) => {
      const what = `${r} × ${c} (${filter})`;
      expect(ours[i].df, what).toBe(theirs[i].df);
      close(ours[i].statistic, theirs[i].statistic, `chi-square ${what}`);
      close(ours[i].p, ps[i], `p ${what}`);
    });
  });

  it('a fewAnswers question: each answer’s 2 × k test equals CROSSTABS of its dichotomy', async () => {
    const few = byCategory('fewAnswers');
    const qualification = byCategory('qualification');
    const n = few.answers.length + 1; // and the "Other"
    const dichotomies = Array.from({ length: n }, (_, k) => `${varOf(few)}_${k + 1}`);
    for (const [cols, c, filter] of [
      ['gender', 'GENDER', 'none'],
      [qualification.id, varOf(qualification), 'none'],
      ['education', 'EDUC', 'female'],
    ] as const) {
      const got = await crosstab(few.id, cols, filter);
      expect(got.multiple).toBe(true);
      expect(got.rowTests).toHaveLength(n);
      const theirs: { statistic: number; df: number }[] = [];
      for (const [k, v] of dichotomies.entries()) {
        const what = `${v} × ${c} (${filter})`;
        const tables = await pspp(`CROSSTABS /TABLES=${v} BY ${c} /STATISTICS=CHISQ.\n`, filter);
        const counts = psppCounts(table(tables, / × /));
        // "выбран" (1) per column is our cell; chosen and not together, the column's base.
        const chosen = counts.cells[counts.rows.indexOf('выбран')];
        const base = got.cols.filter((col) => col.total > 0);
        expect(chosen, what).toEqual(
          got.cells[k].filter((_, j) => got.cols[j].total > 0).map((x) => x.count),
        );
        expect(
          counts.cells.reduce(
            (sum, r) => sum.map((x, j) => x + r[j]),
            base.map(() => 0),
          ),
          what,
        ).toEqual(base.map((col) => col.total));
        expect(got.rowTests![k], what).toBeTruthy();
        theirs.push(pearson(tables));
      }
      const ps = await psppP(theirs.map((t) => ['chi', t.statistic, t.df]));
      theirs.forEach((t, k) => {
        const what = `${dichotomies[k]} × ${c} (${filter})`;
        const mine = got.rowTests![k]!;
        expect(mine.df, what).toBe(t.df);
        close(mine.statistic, t.statistic, `chi-square ${what}`);
        close(mine.p, ps[k], `p ${what}`);
      });
    }
  });

  it('numbers by gender: Welch’s t, df and p equal T-TEST’s "equal variances not assumed"', async () => {
    const cases: [Question, Filter][] = [
      [byCategory('nps'), 'none'],
      [byCategory('slider'), 'none'],
      [byCategory('fromTo'), 'adults'],
      [byCategory('starRating'), 'adults'],
    ];
    for (const [q, filter] of cases) {
      const what = `${varOf(q)} by gender (${filter})`;
      const got = await crosstab(q.id, 'gender', filter);
      const tables = await pspp(`T-TEST /GROUPS=GENDER(1,2) /VARIABLES=${varOf(q)}.\n`, filter);
      const row = line(table(tables, 'Independent Samples Test'), 'Equal variances not assumed');
      const [t, df] = [Number(row[3]), Number(row[4])];
      const [p] = await psppP([['t', t, df]]);
      const test = got.numbers!.test!;
      expect(test.kind, what).toBe('welch-t');
      if (test.kind !== 'welch-t') return;
      close(test.statistic, t, `t ${what}`);
      close(test.df, df, `df ${what}`);
      close(test.p, p, `p ${what}`);
      // Each group's count, mean and standard deviation, by the file's gender labels.
      const groups = table(tables, 'Group Statistics').slice(1);
      got.cols.forEach((col, j) => {
        const g = groups.find((r) => r[1] === fileLabel(got, col));
        expect(g, `${what} ${col.text}`).toBeDefined();
        const mine = got.numbers!.cols[j];
        expect(mine.n, what).toBe(Number(g![2]));
        close(mine.mean!, Number(g![3]), `mean ${what} ${col.text}`);
        close(mine.sd!, Number(g![4]), `sd ${what} ${col.text}`);
      });
    }
  });

  it('numbers by a group of three or more: the ANOVA’s F, df1, df2 and p equal ONEWAY', async () => {
    const cases: [Question, string, string, Filter][] = [
      [byCategory('starRating'), 'education', 'EDUC', 'none'],
      [byCategory('fromTo'), 'age', 'BAND', 'none'],
      [byCategory('slider'), 'age', 'BAND', 'female'],
      [byCategory('nps'), 'education', 'EDUC', 'female'],
      [byCategory('nps'), byCategory('qualification').id, varOf(byCategory('qualification')), 'adults'],
    ];
    for (const [q, cols, c, filter] of cases) {
      const what = `${varOf(q)} by ${c} (${filter})`;
      const got = await crosstab(q.id, cols, filter);
      const tables = await pspp(`ONEWAY ${varOf(q)} BY ${c}.\n`, filter);
      const anova = table(tables, 'ANOVA');
      const between = line(anova, 'Between Groups');
      const within = line(anova, 'Within Groups');
      const [df1, f, df2] = [Number(between[2]), Number(between[4]), Number(within[2])];
      const [p] = await psppP([['f', f, df1, df2]]);
      const test = got.numbers!.test!;
      expect(test.kind, what).toBe('anova');
      if (test.kind !== 'anova') return;
      expect([test.df1, test.df2], what).toEqual([df1, df2]);
      close(test.statistic, f, `F ${what}`);
      close(test.p, p, `p ${what}`);
    }
  });
});
