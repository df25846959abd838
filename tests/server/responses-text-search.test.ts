import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { insertProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectStatus } from '../../src/domain/projects';
import type { ProjectContent } from '../../src/domain/content/model';
import type { RespondentsPage } from '../../src/domain/responses';
import { writeContent } from '../../server/repos/content';
import { CHOICE } from '../../server/reports/shape';
import { insertRespondents, sampleContent, sampleRespondents } from '../../server/reports/sample';

// The respondents list's text search (`textSearch`, any written answer) after migration 025 put a
// trigram index in front of it: the respondents found are exactly those with an open or "Other"
// text that contains the term, case-insensitive in any script, as a substring (not as words, not as
// trigrams found apart), with LIKE's wildcards taken literally; terms too short for a trigram, and
// texts that leave (an erased respondent), included. Checked against a brute-force search over the
// rows written, through the list, the exclusion by a filter and the list's download. Runs on SQLite,
// and on PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
let owner: Session;
let pid: number;
let ids: number[];
const content: ProjectContent = sampleContent();
const questions = content.questionnaires[0].blocks[0].questions;
/** The questions whose texts the search reads: open ones and choices offering "Other". */
const written = new Set(
  questions
    .filter((q) => q.category === 'open' || (CHOICE.includes(q.category) && q.other !== null))
    .map((q) => q.id),
);
const TEXTS = [
  'Ночной режим',
  'НОЧНОЙ РЕЖИМ, пожалуйста',
  'Ёжик в тумане',
  'ежик без точек',
  'ABC-отчёт: 100% готов',
  'a_b и a-b',
  'Слово "кавычки" тут',
  'бвгд абв',
  'Straße',
  '🎮🎮🎮 игра',
  'ну и ну',
  'x',
  'Кооперативный режим',
  'back\\slash',
];
const people = sampleRespondents(5151, 60, content);
// Every written answer gets one of the texts above, in turn.
let next = 0;
for (const p of people)
  for (const a of p.answers)
    if (written.has(a.question_id) && a.text !== null) a.text = TEXTS[next++ % TEXTS.length];

beforeAll(async () => {
  server = await startServer();
  const org = await server.createOrganization('Поиск');
  owner = await server.as(Role.Researcher, { organizationId: org });
  pid = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: 'Поиск' });
  expect(await writeContent(server.app.db, pid, 0, content, owner.user.id)).toBe(1);
  ids = await insertRespondents(server.app.db, pid, content.questionnaires[0].id, people);
  // A second project with the same texts: its rows are in the same index and must not be found.
  const other = await insertProject(server, org, { status: ProjectStatus.OnRotation, name: 'Другой' });
  expect(await writeContent(server.app.db, other, 0, content, owner.user.id)).toBe(1);
  await insertRespondents(server.app.db, other, content.questionnaires[0].id, people.slice(0, 20));
});
afterAll(() => server?.close());

/** The brute force: the respondents one of whose written answers contains the term. */
const expected = (term: string, gone: Set<number> = new Set()) =>
  ids
    .filter(
      (id, i) =>
        !gone.has(id) &&
        people[i].answers.some(
          (a) => written.has(a.question_id) && (a.text ?? '').toLowerCase().includes(term.toLowerCase()),
        ),
    )
    .sort((a, b) => a - b);

async function found(term: string): Promise<number[]> {
  const res = await server.call(
    'GET',
    `/project/respondents?pid=${pid}&excluded=all&pageSize=200&textSearch=${encodeURIComponent(term)}`,
    { session: owner },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const page = res.body as RespondentsPage;
  expect(page.total).toBe(page.items.length);
  return page.items.map((r) => r.id).sort((a, b) => a - b);
}

const TERMS = [
  'ночной',
  'НОЧНОЙ РЕЖ',
  'ной реж',
  'Ёжик',
  'ёж',
  'ЕЖИК',
  'abc-',
  '100%',
  '%',
  '0% г',
  '_',
  'a_b',
  '"кав',
  'кавычки"',
  'абвг',
  'бвгд а',
  'STRASSE',
  'straße',
  '🎮🎮',
  '🎮 и',
  'x',
  'ну',
  'ну и ну и',
  'кооператив',
  'кооперативный режим',
  'режим',
  'k\\s',
  'нет такого слова',
];

describe('the text search over written answers', () => {
  it('finds exactly the respondents whose text contains the term, on the list', async () => {
    for (const term of TERMS) expect(await found(term), term).toEqual(expected(term));
    // The search is worth testing: most terms find someone, a few find no one.
    expect(TERMS.filter((t) => expected(t).length > 0).length).toBeGreaterThan(20);
    expect(expected('абвг')).toEqual([]);
  });

  it('excludes by a text filter exactly those, and an erased respondent’s texts leave it', async () => {
    const term = 'режим';
    const wanted = expected(term);
    const res = await server.call('POST', '/project/respondents/exclusion', {
      session: owner,
      body: { pid, filter: { textSearch: 'РЕЖИМ' }, excluded: true, reason: 'Проверка поиска' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const excluded = (
      await server.call('GET', `/project/respondents?pid=${pid}&excluded=only&pageSize=200`, {
        session: owner,
      })
    ).body as RespondentsPage;
    const still = new Set(
      people.flatMap((p, i) => (p.status === 1 ? [ids[i]] : [])), // those answering stay counted
    );
    expect(excluded.items.map((r) => r.id).sort((a, b) => a - b)).toEqual(
      wanted.filter((id) => !still.has(id)),
    );

    const erased = expected('ночной')[0];
    const del = await server.call('DELETE', '/project/respondent', {
      session: owner,
      body: { pid, id: erased },
    });
    expect(del.status, JSON.stringify(del.body)).toBe(204);
    const gone = new Set([erased]);
    for (const t of ['ночной', 'режим', 'ну']) expect(await found(t), t).toEqual(expected(t, gone));
  });
});
