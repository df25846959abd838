import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import ExcelJS from 'exceljs';
import { startServer, type Session, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import { EDUCATION_LEVELS } from '../../src/domain/lookups';
import type { ReportFilters, ReportJson } from '../../src/domain/reports';
import type { ProjectContent } from '../../src/domain/content/model';
import { writeContent } from '../../server/repos/content';
import { searchCities } from '../../server/data/cities';
import { writeSetting } from '../../server/repos/projects';
import {
  insertRespondents,
  sampleContent,
  sampleRespondents,
  SAMPLE_PLACES,
  type SampleRespondent,
} from '../../server/reports/sample';
import { counterQuestions } from '../../server/reports/counters';
import { rebuildCounters } from '../../server/reports/recount';
import { expectReport } from './stats-brute';

// GET /project/stats/file: the JSON report's numbers against a brute-force count over the same
// generated respondents for random filter combinations; the workbook and the CSV read back; who may
// read; bad queries; the live/final rule. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
let owner: Session;
let pid: number;
let orgId: number;
const content: ProjectContent = sampleContent();
const questions = content.questionnaires[0].blocks[0].questions;

beforeAll(async () => {
  server = await startServer();
  orgId = await server.createOrganization('Исследования');
  owner = await server.as(Role.Researcher, { organizationId: orgId });
  pid = await insertProject(server, orgId, { status: ProjectStatus.OnRotation, name: 'Игроки: весна/2026' });
  expect(await writeContent(server.app.db, pid, 0, content, owner.user.id)).toBe(1);
});
afterAll(() => server?.close());

async function replaceRespondents(list: SampleRespondent[]) {
  await server.app.db.deleteFrom('respondents').where('project_id', '=', pid).execute();
  // Deleting respondents is no product path, so nothing takes their rows out of the counters: a
  // rebuild does (what the migration does), then the bulk insert adds the new ones.
  await rebuildCounters(server.app.db, pid, counterQuestions(content));
  await insertRespondents(server.app.db, pid, content.questionnaires[0].id, list);
}

function query(f: ReportFilters): string {
  const parts = Object.entries(f)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return parts.length ? `&${parts.join('&')}` : '';
}

async function report(f: ReportFilters = {}, session = owner): Promise<ReportJson> {
  const res = await server.call('GET', `/project/stats/file?pid=${pid}&type=json${query(f)}`, { session });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ReportJson;
}

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

describe('the JSON report', () => {
  it('equals a brute-force count over generated respondents, for random filter combinations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 60 }),
        fc.array(filtersArb, { minLength: 1, maxLength: 4 }),
        async (seed, count, filterSets) => {
          const people = sampleRespondents(seed, count, content);
          await replaceRespondents(people);
          // No filter and a portrait alone read the counters; any other filter groups the answer rows.
          const portraits = content.portraits.map((p) => ({ portrait: p.id }));
          for (const f of [{}, ...portraits, ...filterSets])
            expectReport(await report(f), people, f, questions);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('pages the open answers and says when no one has answered', async () => {
    await replaceRespondents([]);
    const empty = await report();
    expect(empty.respondents.started).toBe(0);
    expect(empty.questions.every((q) => q.answered === 0)).toBe(true);

    const people = sampleRespondents(7, 80, content);
    await replaceRespondents(people);
    const open = questions.find((q) => q.category === 'open')!;
    const texts = people.flatMap((p) =>
      p.answers.filter((a) => a.question_id === open.id).map((a) => a.text),
    );
    const res = await server.call(
      'GET',
      `/project/stats/file?pid=${pid}&type=json&openPage=2&openPageSize=5`,
      {
        session: owner,
      },
    );
    const got = (res.body as ReportJson).questions.find((q) => q.id === open.id)!.open!;
    expect(got).toMatchObject({ total: texts.length, page: 2, pageSize: 5 });
    expect(got.items.map((i) => i.text)).toEqual(texts.slice(5, 10));
  });
});

describe('places stored by id', () => {
  it('are named in the reader’s language and filtered by their id', async () => {
    const [moscow] = searchCities({ search: 'Москва', limit: 1, locale: 'ru' });
    const people = sampleRespondents(3, 6, content).map((p) => ({
      ...p,
      city: moscow.id,
      region: moscow.region.id,
    }));
    await replaceRespondents(people);
    const ru = await server.call('GET', `/project/stats/file?pid=${pid}&type=json`, {
      session: owner,
      locale: 'ru',
    });
    expect(ru.body.cities).toEqual([{ id: moscow.id, name: 'Москва', count: 6 }]);
    expect(ru.body.regions[0]).toMatchObject({ id: moscow.region.id, name: moscow.region.name, count: 6 });
    const en = await report({ city: moscow.id });
    expect(en.cities).toEqual([{ id: moscow.id, name: moscow.latinName, count: 6 }]);
    expect(en.respondents.started).toBe(6);
  });
});

describe('the downloads', () => {
  it('streams a workbook with a summary sheet per question and one raw row per filtered respondent', async () => {
    const people = sampleRespondents(11, 90, content);
    await replaceRespondents(people);
    const f: ReportFilters = { gender: 'female' };
    const json = await report(f);
    const res = await fetch(
      `${server.url}/api/v1/service/project/stats/file?pid=${pid}&type=stats&gender=female`,
      {
        headers: {
          'x-auth-token': owner.accessToken,
          'x-refresh-token': owner.refreshToken,
          'accept-language': 'en',
        },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="_______ ______2026.xlsx"; filename*=UTF-8''${encodeURIComponent('Игроки_ весна_2026.xlsx')}`,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    expect(wb.worksheets.length).toBe(1 + questions.length + 1);
    const raw = wb.getWorksheet('Respondents')!;
    const women = people.filter((p) => p.gender === 'female');
    expect(raw.actualRowCount).toBe(women.length + 1);
    const header = (raw.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 4)).toEqual(['ID', 'Status', 'Portrait', 'Gender']);
    // One column per answer of the multiple-choice question, plus its "other".
    const few = questions.find((q) => q.category === 'fewAnswers')!;
    expect(header.filter((h) => String(h).startsWith(`3. ${few.text}: `))).toHaveLength(
      few.answers.length + 1,
    );
    // The raw column of the single-choice question counts what the JSON counts.
    const one = questions.find((q) => q.category === 'oneAnswer')!;
    const col = header.indexOf(`2. ${one.text}`) + 1;
    const values: unknown[] = [];
    raw.eachRow((row, n) => n > 1 && values.push(row.getCell(col).value));
    for (const a of json.questions[1].answers!)
      expect(values.filter((v) => v === a.text).length).toBe(a.count);
    // The question's summary sheet holds the JSON's counts.
    const sheet = wb.worksheets[2];
    expect(String(sheet.getRow(1).getCell(1).value)).toBe(`2. ${one.text}`);
    const counts = new Map<string, unknown>();
    sheet.eachRow((row) => counts.set(String(row.getCell(1).value), row.getCell(2).value));
    for (const a of json.questions[1].answers!) expect(counts.get(a.text)).toBe(a.count);
    expect(counts.get('Answered')).toBe(json.questions[1].answered);
  });

  it('gives the same raw rows as CSV', async () => {
    const people = sampleRespondents(12, 30, content);
    await replaceRespondents(people);
    const res = await fetch(
      `${server.url}/api/v1/service/project/stats/file?pid=${pid}&type=stats&format=csv&ageMin=20`,
      {
        headers: {
          'x-auth-token': owner.accessToken,
          'x-refresh-token': owner.refreshToken,
          'accept-language': 'en',
        },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('.csv');
    const bytes = Buffer.from(await res.arrayBuffer());
    // A byte order mark, so that Excel reads the UTF-8 (Cyrillic) text as such.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.startsWith('ID,Status,Portrait')).toBe(true);
    const lines = text.trimEnd().split('\r\n');
    expect(lines.length).toBe(people.filter((p) => p.age !== null && p.age >= 20).length + 1);
  });
});

describe('who may read a report', () => {
  it('is whoever may read the project; anyone else gets the project’s own 404', async () => {
    for (const type of ['json', 'stats']) {
      const path = `/project/stats/file?pid=${pid}&type=${type}`;
      expect((await server.call('GET', path)).status).toBe(401);
      const stranger = await server.as(Role.Researcher);
      const refused = await server.call('GET', path, { session: stranger });
      const project = await server.call('GET', `/project?pid=${pid}`, { session: stranger });
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual(project.body);
      expect((await server.call('GET', path, { session: await server.as(Role.Issuer) })).status).toBe(404);
      expect((await server.call('GET', path, { session: await server.as(Role.Administrator) })).status).toBe(
        200,
      );
      expect((await server.call('GET', path, { session: await server.as(Role.Moderator) })).status).toBe(200);
      const colleague = await server.as(Role.DemoResearcher, { organizationId: orgId });
      expect((await server.call('GET', path, { session: colleague })).status).toBe(200);
    }
    const missing = await server.call('GET', `/project/stats/file?pid=999999999&type=json`, {
      session: owner,
    });
    expect(missing.status).toBe(404);
  });

  it('refuses bad queries with a 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['pid=abc&type=json', 'pid'],
      ['pid=99999999999&type=json', 'pid'],
      [`pid=${pid}&type=pdf`, 'type'],
      [`pid=${pid}&type=stats&format=pdf`, 'format'],
      [`pid=${pid}&type=json&gender=robot`, 'gender'],
      [`pid=${pid}&type=json&ageMin=5`, 'ageMin'],
      [`pid=${pid}&type=json&ageMin=50&ageMax=20`, 'ageMax'],
      [`pid=${pid}&type=json&city=${'x'.repeat(200)}`, 'city'],
      [`pid=${pid}&type=json&city=a%00b`, 'city'],
      [`pid=${pid}&type=json&openPageSize=1000`, 'openPageSize'],
      [`pid=${pid}&type=json&portrait=${encodeURIComponent('a b')}`, 'portrait'],
    ];
    for (const [q, field] of cases) {
      const res = await server.call('GET', `/project/stats/file?${q}`, { session: owner });
      expect(res.status, q).toBe(400);
      expect(res.body.field, q).toBe(field);
      expect(res.body.message, q).toMatch(new RegExp(field));
    }
  });
});

describe('live or final', () => {
  it('hides the numbers of a running survey when the online report is off, until it finishes', async () => {
    await replaceRespondents(sampleRespondents(5, 10, content));
    await writeSetting(server.app.db, pid, 'set_report_fill_online', false);
    await writeSetting(server.app.db, pid, 'set_stat_fill_online', false);
    const hidden = await report();
    expect(hidden).toMatchObject({ available: false, countersAvailable: false, final: false, questions: [] });
    expect(hidden.respondents.started).toBe(0);
    const file = await server.call('GET', `/project/stats/file?pid=${pid}&type=stats`, { session: owner });
    expect(file.status).toBe(409);
    expect(file.body.message).toBe('The report will be available when the survey finishes');

    await writeSetting(server.app.db, pid, 'set_stat_fill_online', true);
    const counters = await report();
    expect(counters).toMatchObject({ available: false, countersAvailable: true });
    expect(counters.respondents.started).toBe(10);

    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.SurveyFinished })
      .where('id', '=', pid)
      .execute();
    expect(await report()).toMatchObject({ available: true, final: true });
    await server.app.db
      .updateTable('projects')
      .set({ status: ProjectStatus.OnRotation })
      .where('id', '=', pid)
      .execute();
    await writeSetting(server.app.db, pid, 'set_report_fill_online', true);
  });
});
