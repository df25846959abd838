import type { Db } from '../db';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import type { ProjectContent, Question } from '../../src/domain/content/model';
import type { ReplyEntry } from '../../src/domain/flow';
import { answerFlags, flagBits, isSpeeder, type AnsweredPage } from '../../src/domain/quality';
import type { QualityFlagParams } from '../../src/domain/responses';
import { ruleAfterCompletion } from './speeders';

// What the answer path asks of issue 31, kept out of server/survey/respond.ts (which the languages
// and operations work change too): the time each page took, and the quality flags a completion
// gets. Both are small: a page's time is the gap between the respondent's last write (the page
// shown) and this answer, kept in the state beside the replies; the flags are written once, after
// the completing answer has committed, in one UPDATE of the respondent's own row.

/** A respondent row's issue-31 columns as a new respondent starts (the cached copy needs them). */
export const NOT_JUDGED = {
  excluded: 0,
  exclusion: null,
  erased_at: null,
  flags: 0,
  flag_params: null,
} as const;

/**
 * The state's page times after an answer at position `at`: the pages before it keep theirs, this one
 * gets now − shownAt (the respondent's last write). Respondents who started before issue 31 have no
 * times and get none (their first pages' times are unknown).
 */
export function pageTimes(
  state: { times?: number[] },
  at: number,
  now: number,
  shownAt: number,
): { times?: number[] } {
  if (!state.times) return {};
  const times = state.times.slice(0, at);
  while (times.length < at) times.push(-1);
  times[at] = Math.max(0, now - shownAt);
  return { times };
}

const numbering = new WeakMap<ProjectContent, Map<string, { question: Question; number: number }>>();
/** Questions by id with their report numbers (questionnaire order, 1-based), per cached content. */
export function questionsById(content: ProjectContent) {
  let map = numbering.get(content);
  if (!map) {
    map = new Map();
    let n = 0;
    for (const qn of content.questionnaires)
      for (const b of qn.blocks) for (const q of b.questions) map.set(q.id, { question: q, number: ++n });
    numbering.set(content, map);
  }
  return map;
}

export function answeredPages(content: ProjectContent, replies: readonly ReplyEntry[]): AnsweredPage[] {
  const byId = questionsById(content);
  const out: AnsweredPage[] = [];
  for (const r of replies) {
    const q = byId.get(r.questionId);
    if (q) out.push({ question: q.question, reply: r.reply, number: q.number });
  }
  return out;
}

interface Completed {
  id: number;
  project_id: number;
  started_at: number;
  finished_at: number | null;
  game_id: number | null;
  player_id: string | null;
  browser_hash: string | null;
}

/** An earlier completion of the project by the same game player, or from the same browser. */
async function duplicateOf(db: Db, r: Completed): Promise<QualityFlagParams | null> {
  const by = r.game_id !== null && r.player_id ? 'player' : r.browser_hash ? 'browser' : null;
  if (!by) return null;
  let q = db
    .selectFrom('respondents')
    .select('id')
    .where('project_id', '=', r.project_id)
    .where('status', '=', RESPONDENT_STATUS.completed)
    .where('id', '<>', r.id);
  q =
    by === 'player'
      ? q.where('game_id', '=', r.game_id).where('player_id', '=', r.player_id)
      : q.where('browser_hash', '=', r.browser_hash);
  const finished = Number(r.finished_at);
  // The first of two completions is the original, whichever wrote its flags first.
  const first = await q
    .where((eb) =>
      eb.or([
        eb('finished_at', '<', finished),
        eb.and([eb('finished_at', '=', finished), eb('id', '<', r.id)]),
      ]),
    )
    .orderBy('finished_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return first ? { name: 'duplicate', by, firstId: first.id } : null;
}

/** The flags of a completed respondent, from their replies and the project's other respondents. */
export async function judgeFlags(
  db: Db,
  r: Completed,
  content: ProjectContent,
  replies: readonly ReplyEntry[],
  thresholdMs: number | null,
): Promise<QualityFlagParams[]> {
  const flags: QualityFlagParams[] = [];
  const duration = Number(r.finished_at) - Number(r.started_at);
  if (isSpeeder(duration, { thresholdMs }))
    // The figures are read with the project's rule as it stands (reasons.ts); the bit is what is kept.
    flags.push({ name: 'speeder', seconds: 0, medianSeconds: 0, thresholdSeconds: 0, percent: 0 });
  flags.push(...answerFlags(answeredPages(content, replies)));
  const duplicate = await duplicateOf(db, r);
  if (duplicate) flags.push(duplicate);
  return flags;
}

/** The stored form of flags: the bits, and each flag's parameters by name (the speeder's are the project's). */
export function storedFlags(flags: readonly QualityFlagParams[]) {
  const params = Object.fromEntries(flags.filter((f) => f.name !== 'speeder').map((f) => [f.name, f]));
  return {
    flags: flagBits(flags),
    flag_params: Object.keys(params).length > 0 ? JSON.stringify(params) : null,
  };
}

/**
 * A respondent has just completed: their flags, written on their row. A failure here must not
 * undo the answer, which has committed: it is logged and the respondent stays unflagged.
 */
export async function judgeCompletion(
  db: Db,
  r: Completed,
  content: ProjectContent,
  state: { replies: ReplyEntry[] },
): Promise<void> {
  try {
    const rule = await ruleAfterCompletion(db, r.project_id);
    const flags = await judgeFlags(db, r, content, state.replies, rule.thresholdMs);
    if (flags.length === 0) return;
    await db.updateTable('respondents').set(storedFlags(flags)).where('id', '=', r.id).execute();
  } catch (err) {
    console.error(`quality flags of respondent ${r.id} could not be written`, err);
  }
}
