import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import type { ReportJson, ReportTexts } from '../../src/domain/reports';
import type { ProjectContent } from '../../src/domain/content/model';
import { writeContent } from '../../server/repos/content';
import {
  insertRespondents,
  sampleContent,
  sampleRespondents,
  type SampleRespondent,
} from '../../server/reports/sample';
import { population } from '../../server/reports/aggregate';

// Every written answer readable (issue 23, part 4): the "Other" texts of choice questions come in the
// JSON report like the open answers, paged with the same parameters, and both lists are searched by
// textSearch: a case-insensitive substring in any script, on SQLite and on PostgreSQL.

let server: TestServer;
let owner: Session;
let pid: number;
const content: ProjectContent = sampleContent();
const questions = content.questionnaires[0].blocks[0].questions;
const single = questions.find((q) => q.category === 'oneAnswer')!;
const multi = questions.find((q) => q.category === 'fewAnswers')!;
const open = questions.find((q) => q.category === 'open')!;

/** Written "Other" texts in several scripts and cases, some with LIKE's wildcards in them. */
const OTHERS = [
  'Гонки',
  'ГОНКИ на выживание',
  'гоночные симуляторы',
  'Ёлка 100%',
  'Racing',
  'snake_case',
  'Ёжик',
];
let people: SampleRespondent[];

beforeAll(async () => {
  server = await startServer();
  const orgId = await server.createOrganization('Тексты');
  owner = await server.as(Role.Researcher, { organizationId: orgId });
  pid = await insertProject(server, orgId, { status: ProjectStatus.OnRotation, name: 'Тексты' });
  expect(await writeContent(server.app.db, pid, 0, content, owner.user.id)).toBe(1);
  people = sampleRespondents(23, 150, content);
  // Every third respondent who answered the single choice wrote an "Other" text of the list above.
  let k = 0;
  for (const p of people) {
    const row = p.answers.find((a) => a.question_id === single.id);
    if (row && k++ % 3 === 0) {
      row.answer_id = null;
      row.text = OTHERS[k % OTHERS.length];
    }
  }
  await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
});
afterAll(() => server?.close());

async function report(params: string): Promise<ReportJson> {
  const res = await server.call('GET', `/project/stats/file?pid=${pid}&type=json${params}`, {
    session: owner,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as ReportJson;
}

/** A question's texts in the order written, as the brute force sees them. */
function textsOf(questionId: string, keep: (p: SampleRespondent) => boolean = () => true) {
  return people
    .filter(keep)
    .flatMap((p) =>
      p.answers.filter((a) => a.question_id === questionId && a.text !== null).map((a) => a.text!),
    );
}
const listOf = (r: ReportJson, id: string): ReportTexts => {
  const q = r.questions.find((x) => x.id === id)!;
  return (q.category === 'open' ? q.open : q.other?.texts)!;
};

describe('the "Other" texts', () => {
  it('come with the choice questions that offer "Other", the first page by default', async () => {
    const r = await report('');
    const all = textsOf(single.id);
    expect(all.length).toBeGreaterThan(30);
    const got = listOf(r, single.id);
    expect(got).toMatchObject({ total: all.length, page: 1, pageSize: 20 });
    expect(got.items.map((i) => i.text)).toEqual(all.slice(0, 20));
    expect(got.total).toBe(r.questions.find((q) => q.id === single.id)!.other!.count);
    // Multiple choice has its "Other" texts too; a question without "Other" has none.
    expect(listOf(r, multi.id).items.map((i) => i.text)).toEqual(textsOf(multi.id).slice(0, 20));
    const noOther = questions.find((q) => q.category === 'qualification')!;
    expect(r.questions.find((q) => q.id === noOther.id)!.other).toBeUndefined();
  });

  it('are paged like the open answers, one question at a time', async () => {
    const all = textsOf(single.id);
    const r = await report(`&openQuestion=${single.id}&openPage=3&openPageSize=7`);
    const got = listOf(r, single.id);
    expect(got).toMatchObject({ total: all.length, page: 3, pageSize: 7 });
    expect(got.items.map((i) => i.text)).toEqual(all.slice(14, 21));
    // The other lists stay on their first page.
    expect(listOf(r, open.id)).toMatchObject({ page: 1, pageSize: 7 });
    expect(listOf(r, open.id).items.map((i) => i.text)).toEqual(textsOf(open.id).slice(0, 7));
    // Respondent ids are the ones who wrote them.
    const writer = new Map<number, string>();
    for (const i of got.items) writer.set(i.respondentId, i.text);
    expect(writer.size).toBe(7);
  });

  it('follow the report filters', async () => {
    const female = (p: SampleRespondent) => p.gender === 'female';
    const all = textsOf(single.id, female);
    const got = listOf(await report('&gender=female&openPageSize=100'), single.id);
    expect(got.total).toBe(all.length);
    expect(got.items.map((i) => i.text)).toEqual(all.slice(0, 100));
  });
});

describe('every list under a small filter', () => {
  it("gives each list its own page from the few respondents' rows, searched or not", async () => {
    // One city's women: few enough that their rows are read respondent by respondent (aggregate.ts,
    // FEW_RESPONDENTS; PostgreSQL reads the lists without a search together).
    const inCity = (city: string | null) => (p: SampleRespondent) => p.city === city && p.gender === 'female';
    // The city whose women are fewest yet wrote at least three open answers and three "Other" texts.
    const city = [...new Set(people.map((p) => p.city))]
      .filter((c) => [open, single].every((q) => textsOf(q.id, inCity(c)).length >= 3))
      .sort((a, b) => people.filter(inCity(a)).length - people.filter(inCity(b)).length)[0]!;
    const keep = inCity(city);
    const filtered = people.filter(keep).length;
    const { few } = await population(server.app.db, pid, { city, gender: 'female' });
    expect(few, `${filtered} of ${people.length}`).toBe(true);
    const filters = `&city=${encodeURIComponent(city)}&gender=female`;
    const page2 = await report(`${filters}&openQuestion=${single.id}&openPage=2&openPageSize=2`);
    expect(listOf(page2, single.id).items.map((i) => i.text)).toEqual(textsOf(single.id, keep).slice(2, 4));
    for (const q of [multi, open])
      expect(
        listOf(page2, q.id).items.map((i) => i.text),
        q.category,
      ).toEqual(textsOf(q.id, keep).slice(0, 2));
    const written = textsOf(open.id, keep);
    expect(written.length).toBeGreaterThan(1);
    const term = written[1].slice(0, 4);
    const searched = await report(
      `${filters}&openQuestion=${open.id}&openPageSize=3&textSearch=${encodeURIComponent(term)}`,
    );
    expect(listOf(searched, open.id).items.map((i) => i.text)).toEqual(
      written.filter((t) => t.toLowerCase().includes(term.toLowerCase())).slice(0, 3),
    );
    for (const q of [single, multi])
      expect(
        listOf(searched, q.id).items.map((i) => i.text),
        q.category,
      ).toEqual(textsOf(q.id, keep).slice(0, 3));
  });
});

describe('textSearch', () => {
  const search = async (term: string, questionId: string, extra = '') =>
    listOf(
      await report(
        `&openQuestion=${questionId}&openPageSize=100&textSearch=${encodeURIComponent(term)}${extra}`,
      ),
      questionId,
    );
  const contains = (term: string) => (t: string) => t.toLowerCase().includes(term.toLowerCase());

  it('finds a substring in any case of Cyrillic and Latin texts', async () => {
    for (const term of ['гонк', 'ГОНК', 'Гоноч', 'ёлк', 'ЁЖ', 'racing', 'RAC']) {
      const want = textsOf(single.id).filter(contains(term));
      const got = await search(term, single.id);
      expect(want.length, term).toBeGreaterThan(0);
      expect(got.total, term).toBe(want.length);
      expect(
        got.items.map((i) => i.text),
        term,
      ).toEqual(want);
    }
  });

  it('takes % and _ as themselves, not as wildcards', async () => {
    expect((await search('100%', single.id)).items.map((i) => i.text)).toEqual(
      textsOf(single.id).filter((t) => t.includes('100%')),
    );
    expect((await search('%', single.id)).total).toBe(
      textsOf(single.id).filter((t) => t.includes('%')).length,
    );
    expect((await search('e_c', single.id)).total).toBe(
      textsOf(single.id).filter((t) => t.includes('e_c')).length,
    );
    expect((await search('nomatch', single.id)).total).toBe(0);
  });

  it('searches the open answers, pages the matches, and leaves the other lists whole', async () => {
    const want = textsOf(open.id).filter(contains('РЕКЛАМ'));
    expect(want.length).toBeGreaterThan(4);
    const r = await report(
      `&openQuestion=${open.id}&openPage=2&openPageSize=3&textSearch=${encodeURIComponent('РЕКЛАМ')}`,
    );
    expect(listOf(r, open.id)).toMatchObject({ total: want.length, page: 2, pageSize: 3 });
    expect(listOf(r, open.id).items.map((i) => i.text)).toEqual(want.slice(3, 6));
    expect(listOf(r, single.id).total).toBe(textsOf(single.id).length);
    // Without openQuestion the search narrows every list.
    const every = await report(`&textSearch=${encodeURIComponent('гонк')}`);
    expect(listOf(every, single.id).total).toBe(textsOf(single.id).filter(contains('гонк')).length);
    expect(listOf(every, open.id).total).toBe(0);
  });

  it('refuses a search too long or with a NUL byte, naming the field', async () => {
    for (const bad of ['я'.repeat(201), 'a\u0000b']) {
      const res = await server.call(
        'GET',
        `/project/stats/file?pid=${pid}&type=json&textSearch=${encodeURIComponent(bad)}`,
        { session: owner },
      );
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('textSearch');
    }
  });
});
