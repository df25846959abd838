import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { TestServer } from './helpers';
import {
  newAnswer,
  newBlock,
  newQuestion,
  newQuestionnaire,
  newStatement,
} from '../../src/domain/content/factory';
import type { ProjectContent } from '../../src/domain/content/model';
import { GameStatus } from '../../src/domain/gameStatus';
import { runFlow, type Page, type Reply } from '../../src/domain/flow';
import { recordRespondent } from '../../server/survey/respond';

// Respondents built to trip each quality flag, and built not to (issue 31), answered through the
// runner's own code: recordRespondent (the code behind the survey page's calls, with a clock for
// page times) and the HTTP calls themselves.

const ans = (id: string) => newAnswer({ id, text: id.toUpperCase() });

/** One oneAnswer with "Other" (shuffled), an open question, a 4-statement matrix, five scales. */
export function qualityContent(): ProjectContent {
  return {
    questionnaires: [
      newQuestionnaire({
        id: 'Q1',
        blocks: [
          newBlock({
            id: 'B1',
            questions: [
              newQuestion({
                id: 'genre',
                text: 'Favourite genre',
                answers: [ans('g1'), ans('g2'), ans('g3')],
                other: 'Other',
                shuffle: 'shuffle',
              }),
              newQuestion({ id: 'why', text: 'What would you improve?', category: 'open' }),
              newQuestion({
                id: 'grid',
                text: 'Rate',
                category: 'matrix',
                answers: [ans('c1'), ans('c2'), ans('c3')],
                statements: ['s1', 's2', 's3', 's4'].map((id) =>
                  newStatement({ id, text: id.toUpperCase() }),
                ),
              }),
              newQuestion({ id: 'st1', text: 'Stars 1', category: 'starRating', stars: 5 }),
              newQuestion({ id: 'np1', text: 'NPS 1', category: 'nps' }),
              newQuestion({
                id: 'sl1',
                text: 'Slider',
                category: 'slider',
                scale: { min: 0, max: 100, step: 1 },
              }),
              newQuestion({ id: 'st2', text: 'Stars 2', category: 'starRating', stars: 5 }),
              newQuestion({ id: 'np2', text: 'NPS 2', category: 'nps' }),
            ],
          }),
        ],
      }),
    ],
    portraits: [],
  };
}

export type Kind = 'normal' | 'fast' | 'straight' | 'gibberish';
const HONEST = ['Больше уровней', 'Меньше рекламы', 'Play with friends', 'Ночной режим', 'Less grinding'];

/** What a respondent of this kind answers on a page (the i-th respondent varies a little). */
export function replyOf(kind: Kind, i: number, page: Page): Reply {
  const q = page.question;
  switch (q.id) {
    case 'genre':
      return { answers: [page.answers[i % page.answers.length].id] };
    case 'why':
      return { text: kind === 'gibberish' ? 'фывапролдж' : HONEST[i % HONEST.length] };
    case 'grid':
      return {
        cells: Object.fromEntries(
          q.statements.map((s, k) => [s.id, q.answers[kind === 'straight' ? 0 : (k + i) % 3].id]),
        ),
      };
    default: {
      // Scales: the top for a straight-liner; otherwise positions that differ from page to page.
      const top = { st1: 5, np1: 10, sl1: 100, st2: 5, np2: 10 } as Record<string, number>;
      const varied = { st1: 4, np1: 6, sl1: 30 + (i % 20), st2: 2, np2: 9 } as Record<string, number>;
      return { value: (kind === 'straight' ? top : varied)[q.id] };
    }
  }
}

/** Milliseconds on each page: about 20 s for most, 2 s for a speeder. */
export const pageMsOf = (kind: Kind, i: number) => (kind === 'fast' ? 2000 : 20_000 + ((i * 1000) % 7000));

/** One respondent of a kind through the runner's code, starting at `now`. */
export async function record(server: TestServer, pid: number, kind: Kind, i: number, now: number) {
  const res = await recordRespondent(server.app.db, {
    projectId: pid,
    source: 'link',
    attributes: { gender: i % 2 ? 'female' : 'male', age: 18 + (i % 40) },
    pick: (page) => replyOf(kind, i, page),
    pageMs: () => pageMsOf(kind, i),
    now,
  });
  expect(res.status).toBe('completed');
  return res.respondentId;
}

/** Answers every page of a started respondent through POST /survey/answer. */
export async function answerAll(server: TestServer, token: string, pick: (page: Page) => Reply) {
  for (let step = 0; step < 50; step++) {
    const session = await server.call('GET', '/survey/session', { headers: { 'x-respondent-token': token } });
    expect(session.status).toBe(200);
    if (session.body.status !== 'started') return session.body.status as string;
    const flow = runFlow(session.body.content as ProjectContent, session.body.start, session.body.replies);
    if (flow.next.kind !== 'page') throw new Error('the flow ended but the respondent did not');
    const page = flow.next;
    const res = await server.call('POST', '/survey/answer', {
      body: { at: page.index, questionId: page.question.id, reply: pick(page) },
      headers: { 'x-respondent-token': token },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  throw new Error('too many pages');
}

/** A connected game of the organization (the SDK's respondents carry its id). */
export async function insertGame(server: TestServer, organizationId: number): Promise<number> {
  const db = server.app.db;
  const id = (t: 'game_genres' | 'game_platforms') => db.selectFrom(t).select('id').executeTakeFirstOrThrow();
  const currency = await db.selectFrom('game_currencies').select('id').executeTakeFirstOrThrow();
  const key = crypto.randomBytes(6).toString('hex');
  const now = Date.now();
  const row = await db
    .insertInto('games')
    .values({
      name: `Game ${key}`,
      name_norm: `game ${key}`,
      organization_id: organizationId,
      genre_id: (await id('game_genres')).id,
      platform_id: (await id('game_platforms')).id,
      currency_id: currency.id,
      status: GameStatus.Connected,
      url: 'https://example.com',
      api_key_hash: key,
      api_key_prefix: 'x',
      api_key_suffix: 'x',
      token_hash: key,
      token_prefix: 'x',
      token_suffix: 'x',
      sdk_connected_at: now,
      last_sdk_at: now,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
