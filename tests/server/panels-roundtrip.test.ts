import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { getProject, insertProject, saveProject } from './content-helpers';
import { Role } from '../../src/domain/roles';
import { ProjectType } from '../../src/domain/projects';
import {
  newAnswer,
  newBlock,
  newPortrait,
  newQuestion,
  newQuestionnaire,
  newStatement,
} from '../../src/domain/content/factory';
import { QUESTION_CATEGORIES, type ProjectContent } from '../../src/domain/content/model';
import { checkContent } from '../../src/domain/content/rules';

// A questionnaire that uses every field the panels set, of every category, saved by an
// Administrator (who may set customParams and block settings) and read back identical.

let server: TestServer;
let admin: Session;
let org: number;

beforeAll(async () => {
  server = await startServer();
  org = await server.createOrganization('Round trip');
  admin = await server.as(Role.Administrator, { organizationId: org });
});
afterAll(async () => server?.close());

function everyField(): ProjectContent {
  const answers = (n: number) => Array.from({ length: n }, (_, i) => newAnswer({ text: `Answer ${i + 1}` }));
  const first = newQuestion({
    text: 'One answer with everything',
    category: 'oneAnswer',
    answers: answers(3),
    other: 'Something else',
    shuffle: 'shuffleExceptLast',
    customParams: '{"utm":"vk"}',
    writeToDb: true,
    dbFields: ['favourite', 'segment_2'],
  });
  const second = newQuestionnaire({
    blocks: [newBlock({ questions: [newQuestion({ text: 'Elsewhere', category: 'open' })] })],
  });
  const intro = newBlock({
    name: 'Intro',
    customParams: '{"block":1}',
    callbackUrl: 'https://partner.example.com/cb',
  });
  const main = newBlock({ name: 'Main' });
  const qs = [
    first,
    newQuestion({
      text: 'Few',
      category: 'fewAnswers',
      answers: answers(4),
      answerLimit: { min: 1, max: 3 },
      other: '',
      shuffle: 'reverse',
    }),
    newQuestion({
      text: 'Screen',
      category: 'screening',
      answers: [
        newAnswer({ text: 'Adult', screening: 'allow' }),
        newAnswer({ text: 'Minor', screening: 'deny' }),
        newAnswer({ text: 'Maybe', screening: 'allowIfAny' }),
      ],
    }),
    newQuestion({ text: 'Qualify', category: 'qualification', answers: answers(2) }),
    newQuestion({ text: 'Range', category: 'fromTo', scale: { min: 18, max: 65, step: 1 } }),
    newQuestion({ text: 'Open', category: 'open', textLength: { min: 10, max: 300 } }),
    newQuestion({ text: 'Stars', category: 'starRating', stars: 7 }),
    newQuestion({ text: 'Slider', category: 'slider', scale: { min: 0, max: 50, step: 2.5 } }),
    newQuestion({ text: 'NPS', category: 'nps', scaleLabels: { min: 'Never', max: 'Surely' } }),
    newQuestion({ text: 'Rank', category: 'sortable', answers: answers(3), shuffle: 'shuffle' }),
    newQuestion({
      text: 'Matrix',
      category: 'matrix',
      answers: answers(2),
      statements: [newStatement({ text: 'Graphics' }), newStatement({ text: 'Sound' })],
      shuffle: 'shuffleExceptFirst',
    }),
    newQuestion({ text: 'Region', category: 'regionAuto' }),
    newQuestion({
      text: 'City',
      category: 'cityAuto',
      region: 'MOS',
      recall: { questionId: first.id, mode: 'notSelected' },
    }),
  ];
  intro.questions = qs.slice(0, 7);
  main.questions = qs.slice(7);
  // Redirects of the kinds that point at existing items, on the question and on answers.
  first.redirect = { kind: 'block', target: main.id };
  first.answers[0].redirect = { kind: 'questionInBlock', target: qs[2].id };
  first.answers[1].redirect = { kind: 'completeBlock', target: null };
  qs[3].answers[0].redirect = { kind: 'questionnaire', target: second.id };
  qs[3].answers[1].redirect = { kind: 'question', target: qs[8].id };
  const qn = newQuestionnaire({ blocks: [intro, main] });
  return {
    questionnaires: [qn, second],
    portraits: [
      newPortrait({
        name: 'Women 18–45 in Podolsk',
        respondents: 250,
        questionnaireId: qn.id,
        params: [
          { field: 'gender', values: ['female'], min: null, max: null },
          { field: 'age', values: [], min: 18, max: 45 },
          { field: 'city', values: ['MOS:Podolsk'], min: null, max: null },
          { field: 'education', values: ['higher'], min: null, max: null },
        ],
      }),
      newPortrait({
        name: 'Men',
        respondents: 100,
        questionnaireId: second.id,
        params: [{ field: 'gender', values: ['male'], min: null, max: null }],
      }),
    ],
  };
}

describe('a questionnaire using every field', () => {
  it('covers every category, passes the rules, and comes back from the server exactly as saved', async () => {
    const content = everyField();
    expect(
      new Set(content.questionnaires[0].blocks.flatMap((b) => b.questions.map((q) => q.category))),
    ).toEqual(new Set(QUESTION_CATEGORIES));
    expect(checkContent(content, { projectType: ProjectType.Target })).toEqual([]);
    const pid = await insertProject(server, org, { type: ProjectType.Target });
    const saved = await saveProject(server, admin, pid, content, 0);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const back = await getProject(server, admin, pid);
    expect(back.body.content).toEqual(JSON.parse(JSON.stringify(content)));
    // Saved again unchanged, it is still the same (nothing normalised away on the second pass).
    expect((await saveProject(server, admin, pid, back.body.content, 1)).status).toBe(200);
    expect((await getProject(server, admin, pid)).body.content).toEqual(back.body.content);
  });

  it('refuses the new fields out of range or on the wrong category, naming the item', async () => {
    const pid = await insertProject(server, org);
    const content = everyField();
    content.portraits = [];
    const open = content.questionnaires[0].blocks[0].questions[5];
    open.textLength = { min: 5, max: 20_000 };
    const res = await saveProject(server, admin, pid, content, 0);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('questionnaires.0.blocks.0.questions.5.textLength');
    open.textLength = null;
    content.questionnaires[0].blocks[0].questions[0].scaleLabels = { min: 'a', max: 'b' };
    const wrong = await saveProject(server, admin, pid, content, 0);
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain('scaleLabels');
  });
});
