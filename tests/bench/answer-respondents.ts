import type { Db } from '../../server/db';
import type { ProjectContent } from '../../src/domain/content/model';
import { normalizeReply, replyRows, runFlow, type ReplyEntry } from '../../src/domain/flow';
import { RESPONDENT_STATUS } from '../../server/db/tables-responses';
import { cityIds } from '../../server/data/cities';
import { EDUCATION_LEVELS } from '../../src/domain/lookups';
import { newToken, sha256 } from '../../server/repos/respondents';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';
import { PAGES } from './answer-walk';

// Respondents in flight for the answers bench (survey-answers.bench.ts): `n` respondents already in
// the middle of the survey, as a crowd is when a measurement starts, rather than all on their first
// page. Respondent i has answered `depth(i)` pages (0–19 of 30), stored as the answer path stores
// them (the state's replies and orders, the answer rows); the report's counters are left out (the
// answer path adds to them, never reads them). None of them is in the server's respondent cache: a
// server restarted, or one behind a balancer that sent their earlier pages to another server.

/** Pages per block in the callbacks' run (6 blocks, each with a callbackUrl). */
const CALLBACK_BLOCK = 5;

/** The 30-question survey: one block, or (callbacks) blocks of CALLBACK_BLOCK pages, each calling `callbackUrl`. */
export function benchContent(callbackUrl?: string) {
  const questions = Array.from({ length: PAGES }, (_, i) =>
    newQuestion({
      id: `q${i}`,
      text: `Question ${i}`,
      answers: [newAnswer({ id: `q${i}a`, text: 'A' }), newAnswer({ id: `q${i}b`, text: 'B' })],
    }),
  );
  const blocks = callbackUrl
    ? Array.from({ length: PAGES / CALLBACK_BLOCK }, (_, b) =>
        newBlock({ callbackUrl, questions: questions.slice(b * CALLBACK_BLOCK, (b + 1) * CALLBACK_BLOCK) }),
      )
    : [newBlock({ questions })];
  return { questionnaires: [newQuestionnaire({ id: 'Q1', blocks })], portraits: [] };
}

/** Pages respondent i has answered before the run: spread over 0–19, neighbours far apart. */
export const depth = (i: number) => (i * 7) % 20;

export interface Walker {
  token: string;
  at: number;
}

/** Inserts `n` respondents of project `pid` (content `content`) at their depth; their walkers. */
export async function respondentsInFlight(
  db: Db,
  pid: number,
  content: ProjectContent,
  n: number,
): Promise<Walker[]> {
  const qn = content.questionnaires[0];
  // What a respondent at depth k has stored: the same for everyone but the seed (no shuffling here).
  const seed = 'bench';
  const byDepth: {
    replies: ReplyEntry[];
    orders: Record<string, string[]>;
    rows: ReturnType<typeof replyRows>;
  }[] = [];
  const replies: ReplyEntry[] = [];
  const orders: Record<string, string[]> = {};
  const rows: ReturnType<typeof replyRows> = [];
  for (let k = 0; k < 20; k++) {
    byDepth.push({ replies: [...replies], orders: { ...orders }, rows: [...rows] });
    const flow = runFlow(content, { questionnaireId: qn.id, seed }, replies);
    if (flow.next.kind !== 'page') throw new Error('the bench survey ended early');
    const page = flow.next;
    const reply = normalizeReply(page.question, { answers: [page.answers[0].id] });
    replies.push({ questionId: page.question.id, reply });
    orders[page.question.id] = page.answers.map((a) => a.id);
    rows.push(...replyRows(page.question, reply));
  }
  const cities = cityIds().slice(0, 30);
  const now = Date.now();
  const walkers: Walker[] = [];
  const CHUNK = 500;
  for (let from = 0; from < n; from += CHUNK) {
    const chunk = Array.from({ length: Math.min(CHUNK, n - from) }, (_, j) => {
      const i = from + j;
      const k = depth(i);
      const token = newToken();
      walkers.push({ token, at: k });
      const stored = byDepth[k];
      const state = {
        v: 1,
        seed: newToken(),
        start: qn.id,
        replies: stored.replies,
        orders: stored.orders,
        end: null,
        // Page times (issue 31): five seconds a page.
        times: stored.replies.map(() => 5000),
      };
      return {
        respondent: {
          project_id: pid,
          questionnaire_id: qn.id,
          portrait_id: null,
          token_hash: sha256(token),
          source: 'demo' as const,
          game_id: null,
          player_id: null,
          gender: i % 2 ? 'female' : 'male',
          age: 14 + (i % 57),
          city: i % 5 < 2 ? cities[0] : cities[i % cities.length],
          region: null,
          education: EDUCATION_LEVELS[i % EDUCATION_LEVELS.length],
          platform: null,
          status: RESPONDENT_STATUS.started,
          state: JSON.stringify(state),
          locale: null,
          started_at: now - 60_000,
          updated_at: now - 60_000 + k,
          finished_at: null,
          last_question_id: `q${k}`,
        },
        rows: stored.rows,
      };
    });
    await db.transaction().execute(async (trx) => {
      const ids = await trx
        .insertInto('respondents')
        .values(chunk.map((c) => c.respondent))
        .returning('id')
        .execute();
      const answerRows = chunk.flatMap((c, j) =>
        c.rows.map((r) => ({ ...r, respondent_id: ids[j].id, project_id: pid })),
      );
      for (let r = 0; r < answerRows.length; r += 2000)
        await trx
          .insertInto('respondent_answers')
          .values(answerRows.slice(r, r + 2000))
          .execute();
    });
  }
  return walkers;
}
