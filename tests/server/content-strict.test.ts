import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { completeContent, getProject, insertProject, saveProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectType } from '../../src/domain/projects';
import { performCommand, type Command } from '../../src/domain/content/commands';
import { importQuestions } from '../../src/domain/content/import';
import { CATEGORY_RULES } from '../../src/domain/content/categories';
import {
  EMPTY_CONTENT,
  QUESTION_CATEGORIES,
  REDIRECT_KINDS,
  SCREENING_MODES,
  type ProjectContent,
} from '../../src/domain/content/model';
import { writeContent } from '../../server/repos/content';
import { withValue } from './fuzz-cases';

// Issue 26, part 3: the questionnaire content is strict like every other body. An unknown key
// anywhere is a 400 naming its path, and nothing is saved; content stored earlier with extra keys
// still opens (normalised on read); and the editor's own commands never produce a key the server
// refuses.

let server: TestServer;
let admin: Session;
let org: number;

beforeAll(async () => {
  server = await startServer();
  org = await server.createOrganization('Strict content');
  admin = await server.as(Role.Administrator, { organizationId: org });
});
afterAll(async () => server?.close());

const versionOf = async (pid: number) => (await getProject(server, admin, pid)).headers.get('etag');

describe('an unknown key in the content', () => {
  const Q = 'questionnaires.0.blocks.0.questions.0';
  const cases: [string, string, unknown, string?][] = [
    ['content.extra', 'extra', { anything: 1 }],
    ["a question's colour", `${Q}.colour`, 'red'],
    ["an answer's typo", `${Q}.answers.1.txet`, 'x'],
    ["a redirect's extra", `${Q}.redirect`, { kind: 'completeBlock', x: 1 }, `${Q}.redirect.x`],
    ["a block's extra", 'questionnaires.0.blocks.0.color', 1],
    ["a questionnaire's extra", 'questionnaires.0.note', ''],
    ["a portrait condition's extra", 'portraits.0.params.0.weight', 2],
  ];
  it.each(cases)('%s is a 400 naming its path; nothing is saved', async (_name, at, value, unknown = at) => {
    const path = `content.${unknown}`.replace(/\.(\d+)/g, '[$1]');
    const pid = await insertProject(server, org, { type: ProjectType.Target });
    const good = completeContent(true);
    expect((await saveProject(server, admin, pid, good, 0)).status).toBe(200);
    const before = (await getProject(server, admin, pid)).body;
    const bad = withValue(good, at.split('.'), value);
    const res = await saveProject(server, admin, pid, bad, 1);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`${path}: Unknown field`);
    expect(res.body.field).toBe(path.replace(/\[(\d+)\]/g, '.$1'));
    const ru = await server.call('POST', '/project', {
      session: admin,
      locale: 'ru',
      body: { pid, content: bad },
      headers: { 'if-match': '"1"' },
    });
    expect(ru.body.message).toBe(`${path}: Лишнее поле`);
    expect((await getProject(server, admin, pid)).body).toEqual(before);
    expect(await versionOf(pid)).toBe('"1"');
  });

  it('an unknown field beside pid and content is refused too', async () => {
    const pid = await insertProject(server, org);
    const res = await server.call('POST', '/project', {
      session: admin,
      body: { pid, content: completeContent(), extra: true },
      headers: { 'if-match': '"0"' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('extra: Unknown field');
  });
});

describe('content stored with extra keys (before content was strict)', () => {
  it('opens normalised: the extra keys are gone, the rest is as stored, and it saves back', async () => {
    const pid = await insertProject(server, org);
    const clean = completeContent();
    const Q = 'questionnaires.0.blocks.0.questions.0';
    let stored = withValue(clean, ['legacy'], { note: 'from an old client' });
    stored = withValue(stored, `${Q}.colour`.split('.'), 'red');
    stored = withValue(stored, `${Q}.answers.0.weight`.split('.'), 3);
    // Written straight into the tables, as an older server did.
    await server.app.db
      .transaction()
      .execute((trx) => writeContent(trx, pid, 0, stored as ProjectContent, admin.user.id));
    const res = await getProject(server, admin, pid);
    expect(res.status).toBe(200);
    const expected = JSON.parse(JSON.stringify(clean));
    expect(res.body.content).toEqual(expected);
    const version = await server.call('GET', `/project/version?pid=${pid}&version=1`, { session: admin });
    expect(version.status).toBe(200);
    expect(version.body.content).toEqual(expected);
    // What the editor got back is accepted as it is.
    expect((await saveProject(server, admin, pid, res.body.content, 1)).status).toBe(200);
  });
});

/**
 * A questionnaire built only with the editor's commands (the ones its panels, canvas, import and
 * history send), using every category and every field a panel can set.
 */
function builtByTheEditor(): ProjectContent {
  let content: ProjectContent = EMPTY_CONTENT;
  const run = (command: Command) => {
    const done = performCommand(content, command);
    if (done) content = done.content;
  };
  const last = <T>(list: readonly T[]) => list[list.length - 1];
  run({ type: 'questionnaire.add' });
  const qn = () => content.questionnaires[0];
  run({ type: 'questionnaire.update', questionnaireId: qn().id, patch: { name: 'Main' } });
  const block = qn().blocks[0];
  run({
    type: 'block.update',
    blockId: block.id,
    patch: { name: 'Intro', customParams: '{"block":1}', callbackUrl: 'https://partner.example.com/cb' },
  });
  const questions = () => content.questionnaires[0].blocks[0].questions;
  for (const category of QUESTION_CATEGORIES) {
    run({ type: 'question.add', blockId: block.id });
    const id = last(questions()).id;
    run({ type: 'question.setCategory', questionId: id, category });
    run({
      type: 'question.update',
      questionId: id,
      patch: {
        text: `A ${category} question`,
        picture: null,
        customParams: '{"utm":"vk"}',
        writeToDb: true,
        dbFields: ['favourite', 'segment_2'],
      },
    });
    const q = () => questions().find((x) => x.id === id)!;
    // The panel shows a field only where the category's rules have it (QuestionPanel's sections).
    const rules = CATEGORY_RULES[category];
    if (rules.answers) {
      run({ type: 'answer.addMany', questionId: id, texts: ['First', 'Second', 'Third'] });
      run({ type: 'answer.add', questionId: id, answer: { text: 'Fourth' } });
      run({ type: 'answer.update', questionId: id, answerId: q().answers[0].id, patch: { text: 'Changed' } });
      run({ type: 'answer.move', questionId: id, answerId: q().answers[3].id, index: 0 });
    }
    if (rules.other) run({ type: 'question.update', questionId: id, patch: { other: 'Something else' } });
    if (rules.shuffle)
      run({ type: 'question.update', questionId: id, patch: { shuffle: 'shuffleExceptLast' } });
    if (rules.answerLimit)
      run({ type: 'question.update', questionId: id, patch: { answerLimit: { min: 1, max: 2 } } });
  }
  const byCategory = (c: string) => questions().find((q) => q.category === c)!;
  const screening = byCategory('screening');
  SCREENING_MODES.forEach((mode, i) =>
    run({
      type: 'answer.update',
      questionId: screening.id,
      answerId: byCategory('screening').answers[i].id,
      patch: { screening: mode },
    }),
  );
  const matrix = byCategory('matrix');
  run({ type: 'statement.add', questionId: matrix.id, statement: { text: 'Graphics' } });
  run({ type: 'statement.add', questionId: matrix.id });
  run({
    type: 'statement.update',
    questionId: matrix.id,
    statementId: byCategory('matrix').statements[1].id,
    text: 'Sound',
  });
  const fromTo = byCategory('fromTo');
  run({
    type: 'question.update',
    questionId: fromTo.id,
    patch: { scale: { ...fromTo.scale!, min: 18, max: 65 } },
  });
  const slider = byCategory('slider');
  run({ type: 'question.update', questionId: slider.id, patch: { scale: { min: 0, max: 50, step: 2.5 } } });
  run({ type: 'question.update', questionId: byCategory('starRating').id, patch: { stars: 7 } });
  run({
    type: 'question.update',
    questionId: byCategory('nps').id,
    patch: { scaleLabels: { min: 'Never', max: 'Surely' } },
  });
  run({
    type: 'question.update',
    questionId: byCategory('open').id,
    patch: { textLength: { min: 10, max: 300 } },
  });
  run({ type: 'question.update', questionId: byCategory('cityAuto').id, patch: { region: 'MOS' } });
  const one = byCategory('oneAnswer');
  run({
    type: 'question.update',
    questionId: byCategory('fewAnswers').id,
    patch: { recall: { questionId: one.id, mode: 'notSelected' } },
  });
  // Every redirect kind, on answers and on a question ("new…" kinds create their targets).
  REDIRECT_KINDS.forEach((kind, i) => {
    const target =
      kind === 'questionnaire'
        ? content.questionnaires[0].id
        : kind === 'block'
          ? content.questionnaires[0].blocks[0].id
          : kind === 'question' || kind === 'questionInBlock'
            ? byCategory('open').id
            : null;
    const q = i % 2 ? byCategory('oneAnswer') : byCategory('qualification');
    run({
      type: 'redirect.set',
      questionId: q.id,
      answerId: q.answers[i % q.answers.length].id,
      redirect: { kind, target },
    });
  });
  run({
    type: 'redirect.set',
    questionId: byCategory('open').id,
    redirect: { kind: 'completeBlock', target: null },
  });
  // Copies, moves and an import, as the canvas, the outline and "import from list" do.
  run({ type: 'question.duplicate', questionId: byCategory('matrix').id });
  run({ type: 'block.add', questionnaireId: content.questionnaires[0].id });
  run({ type: 'block.duplicate', blockId: content.questionnaires[0].blocks[0].id });
  run({ type: 'questionnaire.duplicate', questionnaireId: content.questionnaires[0].id });
  const imported = importQuestions(
    fs.readFileSync(new URL('../unit/import-corpus/qualtrics-advanced.txt', import.meta.url), 'utf8'),
  );
  if (!imported.ok) throw new Error('import failed');
  run({
    type: 'import',
    questionnaireId: content.questionnaires[0].id,
    blockId: null,
    blocks: imported.blocks,
  });
  // Portraits, as the portraits dialog sets them.
  run({ type: 'portrait.add' });
  run({
    type: 'portrait.update',
    portraitId: content.portraits[0].id,
    patch: {
      name: 'Women 18–45 in Podolsk',
      respondents: 250,
      questionnaireId: content.questionnaires[0].id,
      params: [
        { field: 'gender', values: ['female'], min: null, max: null },
        { field: 'age', values: [], min: 18, max: 45 },
        { field: 'city', values: ['MOS:Podolsk'], min: null, max: null },
        { field: 'education', values: ['higher'], min: null, max: null },
      ],
    },
  });
  // Every category changed into every other one and back: what a category leaves behind is sent too.
  const probe = byCategory('fewAnswers').id;
  for (const category of QUESTION_CATEGORIES)
    run({ type: 'question.setCategory', questionId: probe, category });
  run({ type: 'question.setCategory', questionId: probe, category: 'fewAnswers' });
  return content;
}

describe('what the editor sends', () => {
  it('builds every category and field with its commands and the server takes it, keys and all', async () => {
    const content = builtByTheEditor();
    const categories = new Set(
      content.questionnaires.flatMap((qn) => qn.blocks.flatMap((b) => b.questions.map((q) => q.category))),
    );
    expect(categories).toEqual(new Set(QUESTION_CATEGORIES));
    const pid = await insertProject(server, org, { type: ProjectType.Target });
    const saved = await saveProject(server, admin, pid, content, 0);
    expect(saved.status, JSON.stringify(saved.body).slice(0, 300)).toBe(200);
    // Nothing the editor set was dropped on the way: what comes back is what was sent.
    expect((await getProject(server, admin, pid)).body.content).toEqual(JSON.parse(JSON.stringify(content)));
  });
});
