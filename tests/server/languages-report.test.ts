import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { insertSurveyProject } from './survey-fixtures';
import { expectReport } from './stats-brute';
import { hasPspp, parseCsv, psppCsv, psppRun, psppTables } from './pspp';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import type { ProjectContent } from '../../src/domain/content/model';
import type { ReportFilters, ReportJson } from '../../src/domain/reports';
import { runFlow } from '../../src/domain/flow';
import { demoReply } from '../../server/reports/demo';
import { counterQuestions } from '../../server/reports/counters';
import { countersServe } from '../../server/reports/counter-reads';
import { counterTotals, recount } from '../../server/reports/recount';
import { startRespondent, type SurveyState } from '../../server/survey/respond';
import { writeContent } from '../../server/repos/content';
import {
  insertRespondents,
  sampleContent,
  sampleRespondents,
  seeded,
  type SampleRespondent,
} from '../../server/reports/sample';
import { withEnglish } from '../../server/reports/sample-english';

// One set of results for a questionnaire in Russian and English (issue 32), on the real server,
// SQLite or PostgreSQL: the report's texts in the reader's language when the questionnaire has it,
// `language` as a filter and as a Compare column, and the downloads' LANGUAGE variable with their
// labels in the language `labels=` names (the source by default); PSPP reads the .sav. The language
// filter reads the report's counters (keyed by language, migration 024): its report equals a brute
// force over the stored rows, also after respondents switch language in the middle of the survey
// (the language of their last page counts, and their earlier pages' counts move with it).

let server: TestServer;
let owner: Session;
let pid: number;
let people: (SampleRespondent & { language?: string })[];
const content: ProjectContent = withEnglish(sampleContent());
const questions = content.questionnaires[0].blocks[0].questions;

beforeAll(async () => {
  server = await startServer();
  const org = await server.createOrganization('Languages');
  owner = await server.as(Role.Researcher, { organizationId: org });
  pid = await insertProject(server, org, { status: ProjectStatus.SurveyFinished, name: 'Bilingual' });
  expect(await writeContent(server.app.db, pid, 0, content, owner.user.id)).toBe(1);
  people = sampleRespondents(32, 80, content);
  await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
});
afterAll(() => server?.close());

const inEnglish = () => people.filter((p) => p.language === 'en');
const get = (path: string, locale: 'en' | 'ru' = 'en') =>
  server.call('GET', path, { session: owner, locale });
const report = (query = '', locale: 'en' | 'ru' = 'en') =>
  get(`/project/stats/file?pid=${pid}&type=json${query}`, locale);

async function download(query: string, locale: 'en' | 'ru' = 'ru'): Promise<Buffer> {
  const res = await fetch(`${server.url}/api/v1/service/project/stats/file?pid=${pid}&type=stats${query}`, {
    headers: {
      'x-auth-token': owner.accessToken,
      'x-refresh-token': owner.refreshToken,
      'accept-language': locale,
    },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('the report in several languages', () => {
  it('a quarter of the sample answered in English', () => {
    expect(inEnglish()).toHaveLength(20);
  });

  it('shows the texts in the reader’s language when the questionnaire has it, else the source', async () => {
    const en = await report();
    expect(en.status).toBe(200);
    expect(en.body.languages).toEqual(['ru', 'en']);
    expect(en.body.textLanguage).toBe('en');
    expect(en.body.questions[1].text).toBe('Which genre do you like best?');
    expect(en.body.questions[1].answers.map((a: { text: string }) => a.text)).toEqual([
      'Puzzles',
      'Strategy',
      'Shooters',
      'Role-playing',
    ]);
    expect(en.body.questions[10].matrix[0].text).toBe('Graphics');
    const ru = await report('', 'ru');
    expect(ru.body.textLanguage).toBe('ru');
    expect(ru.body.questions[1].text).toBe(questions[1].text);
    // The counts are the same whatever the texts' language.
    expect(ru.body.questions.map((q: { answered: number }) => q.answered)).toEqual(
      en.body.questions.map((q: { answered: number }) => q.answered),
    );
    // labels= picks one; a language the questionnaire lacks is a 400 naming it.
    expect((await report('&labels=ru')).body.questions[1].text).toBe(questions[1].text);
    const missing = await report('&labels=de');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      field: 'labels',
      code: 'unknown-language',
      message: 'The questionnaire has no such language: de',
    });
    const bad = await report('&labels=klingon');
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('labels');
  });

  it('filters by language: the English respondents and their answers only', async () => {
    const res = await report('&language=en');
    expect(res.status).toBe(200);
    expect(res.body.filters).toEqual({ language: 'en' });
    const want = inEnglish();
    expect(res.body.respondents.started).toBe(want.length);
    const genre = questions[1];
    const picked = (id: string) =>
      want.filter((p) => p.answers.some((a) => a.question_id === genre.id && a.answer_id === id)).length;
    expect(res.body.questions[1].answers.map((a: { count: number }) => a.count)).toEqual(
      genre.answers.map((a) => picked(a.id)),
    );
    // The funnel and the timing read the same respondents.
    expect(res.body.timing.completed).toBe(want.filter((p) => p.status === 2).length);
    const unknown = await report('&language=xx');
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('language');
  });

  it('compares a question by language in Compare, both languages counted', async () => {
    const genre = questions[1];
    const res = await get(`/project/stats/crosstab?pid=${pid}&rows=${genre.id}&cols=language`);
    expect(res.status).toBe(200);
    expect(res.body.colsOf).toEqual({ id: 'language', text: 'Questionnaire language', kind: 'attribute' });
    expect(res.body.cols.map((c: { id: string; text: string }) => [c.id, c.text])).toEqual([
      ['ru', 'Russian'],
      ['en', 'English'],
    ]);
    expect(res.body.rows[0].text).toBe('Puzzles');
    const answered = (lang: string) =>
      people.filter(
        (p) => (p.language ?? 'ru') === lang && p.answers.some((a) => a.question_id === genre.id),
      );
    expect(res.body.totals.cols).toEqual([answered('ru').length, answered('en').length]);
    const ruReader = await get(`/project/stats/crosstab?pid=${pid}&rows=${genre.id}&cols=language`, 'ru');
    expect(ruReader.body.cols.map((c: { text: string }) => c.text)).toEqual(['Русский', 'Английский']);
    expect(ruReader.body.rows[0].text).toBe('Головоломки');
  });
});

describe('the downloads’ LANGUAGE and labels', () => {
  it('CSV: a Language column with each respondent’s code, labels in the source by default, in English with labels=en', async () => {
    const csv = parseCsv((await download('&format=csv')).toString('utf8').replace(/^\uFEFF/, ''));
    const header = csv[0];
    const at = header.indexOf('Язык');
    expect(at).toBeGreaterThan(0);
    expect(header).toContain(`2. ${questions[1].text}`);
    const rows = csv.slice(1).filter((r) => r.length > 1);
    expect(rows).toHaveLength(people.length);
    expect(rows.filter((r) => r[at] === 'en')).toHaveLength(20);
    expect(rows.filter((r) => r[at] === 'ru')).toHaveLength(60);
    const english = parseCsv(
      (await download('&format=csv&labels=en')).toString('utf8').replace(/^\uFEFF/, ''),
    );
    expect(english[0]).toContain('2. Which genre do you like best?');
    // The file's own words stay in the reader's language; only the questionnaire's texts change.
    expect(english[0]).toContain('Язык');
  });

  it('XLSX: the respondents sheet carries the language; the summary says which language its texts are in', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await download('&format=xlsx&labels=en', 'en')) as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Respondents')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const at = header.indexOf('Language');
    expect(at).toBeGreaterThan(0);
    const codes: unknown[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) codes.push((row.values as unknown[])[at + 1]);
    });
    expect(codes.filter((c) => c === 'en')).toHaveLength(20);
    expect(header).toContain('2. Which genre do you like best?');
    const summary = wb.getWorksheet('Summary')!;
    const lines: unknown[][] = [];
    summary.eachRow((row) => lines.push((row.values as unknown[]).slice(1)));
    expect(lines).toContainEqual(['Texts in', 'en']);
  });

  it.skipIf(!hasPspp)(
    'SAV: PSPP reads LANGUAGE, coded 1 for the source, labelled in the labels’ language',
    async () => {
      const sav = await download('&format=sav');
      const tables = psppTables(await psppRun(sav, 'DISPLAY DICTIONARY.'));
      const vars = tables.get('Variables')!.slice(1);
      expect(vars.map((r) => r[0])).toContain('LANGUAGE');
      expect(vars.find((r) => r[0] === 'Q2')?.[2]).toBe(questions[1].text);
      const labels = tables.get('Value Labels')!.slice(1);
      const start = labels.findIndex((r) => r[0] === 'Язык');
      expect(labels.slice(start, start + 2).map((r) => [r[1], r[2]])).toEqual([
        ['1', 'Русский'],
        ['2', 'Английский'],
      ]);
      const cases = parseCsv(await psppCsv(sav));
      const col = cases[0].indexOf('LANGUAGE');
      const values = cases
        .slice(1)
        .filter((r) => r.length > 1)
        .map((r) => Number(r[col]));
      expect(values.filter((v) => v === 2)).toHaveLength(20);
      expect(values.filter((v) => v === 1)).toHaveLength(60);
      // PSPP's own frequencies by the value labels agree with the respondents we stored.
      const freq = psppTables(await psppRun(sav, 'FREQUENCIES /VARIABLES=LANGUAGE.'));
      const table = [...freq.entries()].find(([k]) => k.startsWith('Язык'))?.[1];
      expect(Number(table?.find((r) => r[1] === 'Английский')?.[2])).toBe(20);

      const english = await download('&format=sav&labels=en');
      const en = psppTables(await psppRun(english, 'DISPLAY DICTIONARY.'));
      expect(en.get('Variables')!.find((r) => r[0] === 'Q2')?.[2]).toBe('Which genre do you like best?');
      const enLabels = en.get('Value Labels')!.slice(1);
      const s = enLabels.findIndex((r) => r[0] === 'Язык');
      expect(enLabels.slice(s, s + 2).map((r) => r[2])).toEqual(['Russian', 'English']);
    },
  );
});

describe('the language filter through the report’s counters', () => {
  it('equals a brute force over the respondents of each language', async () => {
    expect(countersServe({ language: 'en' })).toBe(true);
    for (const f of [
      { language: 'en' },
      { language: 'ru' },
      { language: 'en', gender: 'female' },
      { language: 'ru', ageMin: 20, ageMax: 40 },
      { language: 'en', city: people.find((p) => p.language === 'en' && p.city)!.city! },
    ] as ReportFilters[]) {
      const res = await report(
        Object.entries(f)
          .map(([k, v]) => `&${k}=${encodeURIComponent(String(v))}`)
          .join(''),
      );
      expect(res.status).toBe(200);
      expectReport(res.body as ReportJson, people, f, questions);
    }
  });

  it('moves a respondent’s counts to the language of their last page when they switch in the middle', async () => {
    const live: ProjectContent = { ...withEnglish(sampleContent()), portraits: [] };
    const { pid: livePid } = await insertSurveyProject(server, live, { template: 'directLink' });
    const db = server.app.db;
    const { organization_id } = await db
      .selectFrom('projects')
      .select('organization_id')
      .where('id', '=', livePid)
      .executeTakeFirstOrThrow();
    const reader = await server.as(Role.Researcher, { organizationId: organization_id! });
    const project = { id: livePid, status: ProjectStatus.OnRotation, template: 'directLink' };

    /** Answers up to `pages` next pages in `language`; true when the survey ended. */
    async function answerPages(id: number, token: string, pages: number, language: string, seed: number) {
      const r = seeded(seed);
      for (let i = 0; i < pages; i++) {
        const row = await db
          .selectFrom('respondents')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        if (row.status !== 1) return true;
        const state = JSON.parse(row.state) as SurveyState;
        const flow = runFlow(live, { questionnaireId: state.start, seed: state.seed }, state.replies);
        if (flow.next.kind !== 'page') return true;
        const page = flow.next;
        const res = await server.call('POST', '/survey/answer', {
          body: { at: page.index, questionId: page.question.id, reply: demoReply(r, page), language },
          headers: { 'x-respondent-token': token },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      return false;
    }
    const start = async (language: string, gender: 'male' | 'female') => {
      const s = await startRespondent(db, {
        project,
        source: 'link',
        attributes: { gender, age: 30 },
        languages: [language],
      });
      if (s.outcome !== 'started') throw new Error(s.outcome);
      return s;
    };
    // A: three pages in Russian, then English to the end. B: English, then back to Russian, and
    // stops halfway. C: Russian throughout. D: English, one page in Russian, English again.
    const a = await start('ru', 'female');
    const b = await start('en', 'male');
    const c = await start('ru', 'female');
    const d = await start('en', 'male');
    await answerPages(a.respondentId, a.token, 3, 'ru', 1);
    await answerPages(b.respondentId, b.token, 2, 'en', 2);
    await answerPages(c.respondentId, c.token, 100, 'ru', 3);
    await answerPages(d.respondentId, d.token, 2, 'en', 4);
    await answerPages(d.respondentId, d.token, 1, 'ru', 5);
    expect(await answerPages(a.respondentId, a.token, 100, 'en', 6)).toBe(true);
    await answerPages(b.respondentId, b.token, 2, 'ru', 7);
    await answerPages(d.respondentId, d.token, 100, 'en', 8);

    const stored = await db
      .selectFrom('respondents')
      .selectAll()
      .where('project_id', '=', livePid)
      .orderBy('id')
      .execute();
    expect(stored.map((r) => r.language)).toEqual(['en', 'ru', 'ru', 'en']);
    const rows = await db
      .selectFrom('respondent_answers')
      .selectAll()
      .where('project_id', '=', livePid)
      .execute();
    const storedPeople: SampleRespondent[] = stored.map((p) => ({
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
        .filter((x) => x.respondent_id === p.id)
        .sort((x, y) => x.id - y.id)
        .map((x) => ({
          question_id: x.question_id,
          answer_id: x.answer_id,
          statement_id: x.statement_id,
          value: x.value === null ? null : Number(x.value),
          text: x.text,
        })),
    }));
    // A's first three pages, answered in Russian, count in English with the rest of A's.
    const first = live.questionnaires[0].blocks[0].questions[0];
    const english = await server.call('GET', `/project/stats/file?pid=${livePid}&type=json&language=en`, {
      session: reader,
    });
    expect(english.status).toBe(200);
    expect(english.body.questions[0].answered).toBe(2);
    expect(english.body.questions.find((q: { id: string }) => q.id === first.id).answered).toBe(2);
    const list = live.questionnaires[0].blocks[0].questions;
    for (const f of [
      {},
      { language: 'en' },
      { language: 'ru' },
      { language: 'ru', gender: 'male' },
    ] as ReportFilters[]) {
      const q = Object.entries(f)
        .map(([k, v]) => `&${k}=${v}`)
        .join('');
      const res = await server.call('GET', `/project/stats/file?pid=${livePid}&type=json${q}`, {
        session: reader,
      });
      expect(res.status).toBe(200);
      expectReport(res.body as ReportJson, storedPeople, f, list, 'any');
    }
    // The counters hold each respondent's rows under their language only.
    const totals = (await counterTotals(db, livePid)).map((x) => JSON.stringify(x)).sort();
    const counted = (await recount(db, livePid, counterQuestions(live)))
      .filter((x) => x.n !== 0)
      .map((x) => JSON.stringify(x))
      .sort();
    expect(totals).toEqual(counted);
  });
});
