import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { startServer, type Session, type TestServer } from './helpers';
import { hasPspp } from './pspp';
import { insertProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import type { ProjectContent, Question } from '../../src/domain/content/model';
import type { CrosstabJson } from '../../src/domain/crosstab';
import { twoProportionP } from '../../src/domain/statistics';
import { writeContent } from '../../server/repos/content';
import {
  insertRespondents,
  sampleContent,
  sampleRespondents,
  type SampleRespondent,
} from '../../server/reports/sample';

// Our statistics against an independent package, Debian's PSPP (`.ci/run` installs it): a generated
// survey's crosstabs from the server, then PSPP syntax with the same data inline (DATA LIST / BEGIN
// DATA) run through `pspp -O format=csv`: CROSSTABS /STATISTICS=CHISQ for the chi-square, T-TEST
// for Welch's t, ONEWAY for the ANOVA. PSPP prints its statistics with 14 decimals (SET FORMAT) but
// its p-values with 3; a second PSPP run computes the p-values from PSPP's own statistics with its
// own distribution functions (SIG.CHISQ, CDF.T, SIG.F) printed in full. Everything to 1e-6 relative.
// Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.

const REL = 1e-6;
let server: TestServer;
let owner: Session;
let pid: number;
let people: SampleRespondent[];
let dir: string;
const content: ProjectContent = sampleContent();
const questions = content.questionnaires[0].blocks[0].questions;
const byCategory = (c: Question['category']) => questions.find((q) => q.category === c)!;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'crosstab-pspp-'));
  server = await startServer();
  const orgId = await server.createOrganization();
  owner = await server.as(Role.Researcher, { organizationId: orgId });
  pid = await insertProject(server, orgId, { status: ProjectStatus.SurveyFinished, name: 'PSPP' });
  expect(await writeContent(server.app.db, pid, 0, content, owner.user.id)).toBe(1);
  people = sampleRespondents(2026, 600, content);
  await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

let runs = 0;
/** Runs PSPP on the syntax; its CSV output as rows of cells. */
function pspp(syntax: string): string[][] {
  const file = path.join(dir, `job${++runs}.sps`);
  const out = path.join(dir, `job${runs}.csv`);
  writeFileSync(file, `SET FORMAT=F24.14.\n${syntax}`);
  execFileSync('pspp', ['-O', 'format=csv', '-o', out, file], { stdio: 'ignore' });
  const text = readFileSync(out, 'utf8');
  expect(text, text).not.toMatch(/error:/);
  return text.split('\n').map((l) => l.split(','));
}

/** The line of a PSPP table whose cells include `label`. */
function line(rows: string[][], label: string): string[] {
  const found = rows.find((r) => r.includes(label));
  expect(found, label).toBeDefined();
  return found!;
}

/** PSPP's own p-values for its statistics, from its distribution functions, printed in full. */
function psppP(kind: 'chi' | 't' | 'f', a: number, b: number, c = 0): number {
  const compute = {
    chi: 'SIG.CHISQ(a, b)',
    t: '2 * CDF.T(-ABS(a), b)',
    f: 'SIG.F(a, b, c)',
  }[kind];
  const rows = pspp(
    `DATA LIST LIST /a b c.\nBEGIN DATA\n${a} ${b} ${c}\nEND DATA.\nCOMPUTE p = ${compute}.\nFORMATS p (E40.16).\nLIST p.\n`,
  );
  return Number(rows[rows.length - 2][0]);
}

const close = (ours: number, theirs: number, what: string) =>
  expect(
    Math.abs(ours - theirs) / Math.max(Math.abs(theirs), 1e-300),
    `${what}: ${ours} vs ${theirs}`,
  ).toBeLessThan(REL);

async function crosstab(rows: string, cols: string): Promise<CrosstabJson> {
  const res = await server.call('GET', `/project/stats/crosstab?pid=${pid}&rows=${rows}&cols=${cols}`, {
    session: owner,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as CrosstabJson;
}

/** CROSSTABS on the table's cells as weighted cases. */
function psppChiSquare(cells: number[][]) {
  const data = cells.flatMap((r, i) => r.map((n, j) => `${i + 1} ${j + 1} ${n}`)).join('\n');
  const out = pspp(
    `DATA LIST LIST /r c w.\nBEGIN DATA\n${data}\nEND DATA.\nWEIGHT BY w.\nCROSSTABS /TABLES=r BY c /STATISTICS=CHISQ.\n`,
  );
  const row = line(out, 'Pearson Chi-Square');
  const statistic = Number(row[1]);
  const df = Number(row[2]);
  return { statistic, df, p: psppP('chi', statistic, df) };
}

/** One case per respondent: the value and the group's number (1-based, as our columns). */
function groupedValues(q: Question, group: (p: SampleRespondent) => string | null, cols: string[]) {
  const lines: string[] = [];
  for (const p of people) {
    const g = group(p);
    const j = g === null ? -1 : cols.indexOf(g);
    if (j < 0) continue;
    for (const a of p.answers)
      if (a.question_id === q.id && a.value !== null) lines.push(`${a.value} ${j + 1}`);
  }
  return lines.join('\n');
}

const band = (age: number | null) =>
  age === null
    ? null
    : age <= 17
      ? '14-17'
      : age <= 24
        ? '18-24'
        : age <= 34
          ? '25-34'
          : age <= 44
            ? '35-44'
            : age <= 54
              ? '45-54'
              : '55+';

describe.skipIf(!hasPspp)('statistics against PSPP', () => {
  it('chi-square, df and p of crosstabs equal CROSSTABS /STATISTICS=CHISQ', async () => {
    const cases: [string, string][] = [
      [byCategory('oneAnswer').id, 'gender'],
      [byCategory('qualification').id, 'age'],
      [byCategory('starRating').id, 'education'],
      [byCategory('screening').id, byCategory('oneAnswer').id],
    ];
    for (const [rows, cols] of cases) {
      const got = await crosstab(rows, cols);
      const theirs = psppChiSquare(got.cells.map((r) => r.map((c) => c.count)));
      expect(got.test!.df, `${rows} × ${cols}`).toBe(theirs.df);
      close(got.test!.statistic, theirs.statistic, `chi-square ${rows} × ${cols}`);
      close(got.test!.p, theirs.p, `p ${rows} × ${cols}`);
    }
    // A fewAnswers row: each answer's own 2 × k table.
    const few = await crosstab(byCategory('fewAnswers').id, 'gender');
    const first = few.rowTests![0]!;
    const counts = few.cells.map((r) => r.map((c) => c.count))[0];
    const theirs = psppChiSquare([counts, counts.map((n, j) => few.cols[j].total - n)]);
    close(first.statistic, theirs.statistic, 'fewAnswers row chi-square');
    close(first.p, theirs.p, 'fewAnswers row p');
  });

  it('Welch’s t (t, df, p) equals T-TEST’s "equal variances not assumed"', async () => {
    for (const q of [byCategory('nps'), byCategory('slider'), byCategory('fromTo')]) {
      const got = await crosstab(q.id, 'gender');
      const cols = got.cols.map((c) => c.id);
      const out = pspp(
        `DATA LIST LIST /v g.\nBEGIN DATA\n${groupedValues(q, (p) => p.gender, cols)}\nEND DATA.\nT-TEST GROUPS=g(1,2) /VARIABLES=v.\n`,
      );
      const row = line(out, 'Equal variances not assumed');
      const at = row.indexOf('Equal variances not assumed');
      const [t, df] = [Number(row[at + 3]), Number(row[at + 4])];
      const test = got.numbers!.test!;
      expect(test.kind).toBe('welch-t');
      if (test.kind !== 'welch-t') return;
      close(test.statistic, t, `${q.category} t`);
      close(test.df, df, `${q.category} df`);
      close(test.p, psppP('t', t, df), `${q.category} p`);
      // The groups' means and standard deviations too.
      const stats = out.filter((r) => r.length >= 6 && /^[12]\.0+$/.test(r[1]));
      got.numbers!.cols.forEach((g, j) => {
        close(g.mean!, Number(stats[j][3]), `${q.category} mean ${j}`);
        close(g.sd!, Number(stats[j][4]), `${q.category} sd ${j}`);
      });
    }
  });

  it('one-way ANOVA (F, df1, df2, p) equals ONEWAY', async () => {
    for (const [q, cols] of [
      [byCategory('starRating'), 'age'],
      [byCategory('fromTo'), 'education'],
    ] as const) {
      const got = await crosstab(q.id, cols);
      const ids = got.cols.map((c) => c.id);
      const group =
        cols === 'age' ? (p: SampleRespondent) => band(p.age) : (p: SampleRespondent) => p.education;
      const out = pspp(
        `DATA LIST LIST /v g.\nBEGIN DATA\n${groupedValues(q, group, ids)}\nEND DATA.\nONEWAY v BY g.\n`,
      );
      const between = line(out, 'Between Groups');
      const within = line(out, 'Within Groups');
      const at = between.indexOf('Between Groups');
      const [df1, f] = [Number(between[at + 2]), Number(between[at + 4])];
      const df2 = Number(within[within.indexOf('Within Groups') + 2]);
      const test = got.numbers!.test!;
      expect(test.kind).toBe('anova');
      if (test.kind !== 'anova') return;
      expect([test.df1, test.df2]).toEqual([df1, df2]);
      close(test.statistic, f, `${q.category} F`);
      close(test.p, psppP('f', f, df1, df2), `${q.category} p`);
    }
  });

  it('the two-proportion z-test’s p equals the chi-square of its 2 × 2 table (z² = χ²)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 400 }),
        fc.integer({ min: 5, max: 400 }),
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        (n1, n2, s1, s2) => {
          const c1 = Math.max(1, Math.min(n1 - 1, Math.round(n1 * s1)));
          const c2 = Math.max(1, Math.min(n2 - 1, Math.round(n2 * s2)));
          if (c1 * n2 === c2 * n1) {
            // Equal proportions: χ² is 0, a row PSPP leaves out of its table; z is 0 and p is 1.
            close(twoProportionP(c1, n1, c2, n2)!, 1, `z-test ${c1}/${n1} vs ${c2}/${n2}`);
            return;
          }
          const theirs = psppChiSquare([
            [c1, c2],
            [n1 - c1, n2 - c2],
          ]);
          close(twoProportionP(c1, n1, c2, n2)!, theirs.p, `z-test ${c1}/${n1} vs ${c2}/${n2}`);
        },
      ),
      { numRuns: 6 },
    );
  });
});
