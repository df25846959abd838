import type { TestServer } from './helpers';
import {
  newAnswer,
  newBlock,
  newQuestion,
  newQuestionnaire,
  newStatement,
} from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';
import { ProjectStatus } from '../../src/domain/projects';

// A project On rotation with a questionnaire that has one question of every category, screening and a
// redirect, stored directly (its creation and moderation are other issues' calls).

export function surveyContent(portraits: ProjectContent['portraits'] = []): ProjectContent {
  const ans = (id: string, extra = {}) => newAnswer({ id, text: id, ...extra });
  return {
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [
          newBlock({
            id: 'B1',
            questions: [
              newQuestion({
                id: 'scr',
                text: 'Do you play games?',
                category: 'screening',
                answers: [ans('yes', { screening: 'allow' }), ans('no', { screening: 'deny' })],
              }),
              newQuestion({
                id: 'one',
                text: 'One',
                answers: [ans('o1', { redirect: { kind: 'question', target: 'open' } }), ans('o2')],
              }),
              newQuestion({
                id: 'few',
                text: 'Few',
                category: 'fewAnswers',
                answers: [ans('f1'), ans('f2'), ans('f3')],
                other: '',
                answerLimit: { min: 1, max: 2 },
                shuffle: 'shuffle',
              }),
              newQuestion({
                id: 'qual',
                text: 'Qualification',
                category: 'qualification',
                answers: [ans('q1'), ans('q2')],
              }),
              newQuestion({ id: 'open', text: 'Open', category: 'open' }),
              newQuestion({
                id: 'range',
                text: 'Range',
                category: 'fromTo',
                scale: { min: 1, max: 10, step: 1 },
              }),
              newQuestion({ id: 'stars', text: 'Stars', category: 'starRating', stars: 5 }),
              newQuestion({
                id: 'slider',
                text: 'Slider',
                category: 'slider',
                scale: { min: 0, max: 100, step: 5 },
              }),
              newQuestion({ id: 'nps', text: 'NPS', category: 'nps' }),
              newQuestion({
                id: 'rank',
                text: 'Rank',
                category: 'sortable',
                answers: [ans('r1'), ans('r2'), ans('r3')],
              }),
              newQuestion({
                id: 'matrix',
                text: 'Matrix',
                category: 'matrix',
                answers: [ans('c1'), ans('c2')],
                statements: [newStatement({ id: 's1', text: 'S1' }), newStatement({ id: 's2', text: 'S2' })],
              }),
              newQuestion({ id: 'region', text: 'Region', category: 'regionAuto' }),
              newQuestion({ id: 'city', text: 'City', category: 'cityAuto' }),
            ],
          }),
        ],
      }),
    ],
    portraits,
  };
}

export async function insertSurveyProject(
  server: TestServer,
  content: ProjectContent,
  opts: { status?: number; template?: string; linkToken?: string } = {},
): Promise<{ pid: number; link: string }> {
  const now = Date.now();
  const org = await server.createOrganization();
  const link = opts.linkToken ?? `link${Math.random().toString(36).slice(2, 14)}`;
  const row = await server.app.db
    .insertInto('projects')
    .values({
      name: 'Survey',
      priority: 0,
      organization_id: org,
      template: opts.template ?? 'directLink',
      type: opts.template === 'target' ? 2 : 1,
      status: opts.status ?? ProjectStatus.OnRotation,
      link_token: link,
      created_by: null,
      created_at: now,
      updated_at: now,
      search_name: 'survey',
      status_changed_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await server.app.db
    .insertInto('project_contents')
    .values({
      project_id: row.id,
      version: 1,
      content: JSON.stringify(content),
      question_count: 13,
      updated_at: now,
      updated_by: null,
    })
    .execute();
  return { pid: row.id, link };
}

/** A valid reply for each question of surveyContent(). */
export const GOOD: Record<string, unknown> = {
  scr: { answers: ['yes'] },
  one: { answers: ['o2'] },
  few: { answers: ['f1'], other: 'mine' },
  qual: { answers: ['q2'] },
  open: { text: 'hello' },
  range: { value: 4 },
  stars: { value: 5 },
  slider: { value: 35 },
  nps: { value: 9 },
  rank: { answers: ['r3', 'r1', 'r2'] },
  matrix: { cells: { s1: 'c1', s2: 'c2' } },
  region: { text: 'MOS' },
  city: { text: 'MOS:Podolsk' },
};
export const ORDER = [
  'scr',
  'one',
  'few',
  'qual',
  'open',
  'range',
  'stars',
  'slider',
  'nps',
  'rank',
  'matrix',
  'region',
  'city',
];
