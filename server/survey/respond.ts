import * as v from 'valibot';
import { dialectOf, type Db } from '../db';
import { quotas, sha256, takeQuotaPlace, saveAnswer, type RespondentRow } from '../repos/respondents';
import { saveAnswerInGroup, writeInGroup } from './group-commit';
import { readRespondent } from './respondent-reads';
import {
  cachedRespondent,
  forgetRespondent,
  keepRespondent,
  type CachedRespondent,
} from './respondent-cache';
import type { ProjectContent } from '../../src/domain/content/model';
import { ProjectStatus } from '../../src/domain/projects';
import { objectMessage } from '../../src/domain/validation';
import { canSetStatus } from '../../src/domain/projectStatus';
import {
  normalizeReply,
  replyRows,
  runFlow,
  runFlowFrom,
  sameReply,
  type Attributes,
  type FlowCheckpoint,
  type FlowProblem,
  type Page,
  type Reply,
} from '../../src/domain/flow';
import { RESPONDENT_STATUS } from '../db/tables-responses';
import { languageMoveCounts, replyCounts } from '../reports/counters';
import { playerWriteFor } from '../players/record';
import { blockCallback, wakeSender, writeDelivery } from '../callbacks';
import { judgeCompletion, pageTimes } from '../responses/completion';
import { LanguageTag, pageLanguage, setRespondentLanguage } from './language';
import { countAnswer } from '../ops/meters';
import { surveyContent } from './content-cache';
import { limitAnswers, type RateLimit } from './limits';

import {
  availability,
  cityIdSet,
  closedError,
  fail,
  outcomeOf,
  type Outcome,
  type SurveyState,
} from './survey-state';
import { startRespondent } from './start';
import { regions } from '../data/cities';
import type { SurveyLocale } from '../../src/i18n/survey';

export { publicContent, surveyContent } from './content-cache';
export { limitAnswers, limitRate, type RateLimit } from './limits';

// Recording respondents: the one code path behind POST /survey/:token/start and POST /survey/answer,
// and behind recordRespondent (the reports' demo data). The flow (src/domain/flow) decides what may be
// answered; this module stores it page by page, counts completions against portrait quotas in the
// same transaction, and moves the project on when every portrait is full.

export {
  availability,
  outcomeOf,
  type Availability,
  type Outcome,
  type ProjectRef,
  type SurveyState,
} from './survey-state';
export { startRespondent } from './start';
export type { Attributes };

export const AnswerBody = v.strictObject(
  {
    /** Position of the page in the respondent's path: replies.length for the next page, less to change an earlier answer. */
    at: v.pipe(
      v.number('type'),
      v.integer('integer'),
      v.minValue(0, 'tooSmall'),
      v.maxValue(100_000, 'tooBig'),
    ),
    questionId: v.pipe(v.string('type'), v.regex(/^[A-Za-z0-9_-]{1,32}$/, 'invalid')),
    reply: v.unknown(),
    /** The questionnaire language the page was shown in (issue 32): the last page's counts. */
    language: v.optional(LanguageTag),
  },
  objectMessage,
);
export type AnswerInput = { at: number; questionId: string; reply: Reply; language?: string };

function problemError(p: FlowProblem) {
  switch (p.code) {
    case 'notReachable':
      return fail(409, 'not-reachable', (s) => s.errors.notReachable);
    case 'tooMany':
      return fail(400, 'too-many-answers', (s) => s.errors.tooMany(p.max));
    case 'tooFew':
      return fail(400, 'too-few-answers', (s) => s.errors.tooFew(p.min));
    case 'outOfRange':
      return fail(400, 'out-of-range', (s) => s.errors.outOfRange(p.min, p.max));
    case 'notOffered':
      return fail(400, 'not-offered', (s) => s.errors.notOffered);
    case 'tooShort':
      return fail(400, 'too-short', (s) => s.errors.tooShort(p.min));
    case 'tooLong':
      return fail(400, 'too-long', (s) => s.errors.tooLong(p.max));
    case 'outsideRegion':
      return fail(400, 'outside-region', (s) => s.errors.outsideRegion);
    case 'required':
      return fail(400, 'required', (s) => s.errors.required);
    default:
      return fail(400, 'invalid-answer', (s) => s.errors.invalid);
  }
}

export interface SubmitResult {
  status: Outcome;
  /** Pages answered so far. */
  answered: number;
}

/**
 * Stores one page. Resending the same page answers the same and writes nothing; changing an earlier
 * answer is allowed only back along pages reached in order (no redirect in between), and drops the
 * answers of the pages after it. Everything is checked before anything is written.
 * A respondent from the cache (`cached`: see respondent-cache.ts) is trusted only for a write that
 * succeeds; any other answer is decided again on a fresh read.
 */
export async function submitPage(
  db: Db,
  respondent: RespondentRow & { project_status?: number },
  input: AnswerInput,
  now = Date.now(),
  limits: RateLimit[] = [],
  cached = false,
): Promise<SubmitResult> {
  // Every submission counts, written or refused, before anything is read or written.
  limitAnswers(db, limits, now);
  if (cached) {
    const written = await submitChecked(db, respondent, input, now, true).catch(() => null);
    if (written) return written;
    const fresh = await readRespondent(db, respondent.token_hash);
    if (!fresh) {
      forgetRespondent(db, respondent.token_hash);
      throw fail(404, 'survey-not-found', (s) => s.errors.notFound);
    }
    keepRespondent(db, fresh);
    respondent = fresh;
  }
  return (await submitChecked(db, respondent, input, now, false))!;
}

/** The respondent behind an answer's token: from the cache when they answered lately, else read. */
export async function respondentForAnswer(
  db: Db,
  token: string,
): Promise<{ respondent: CachedRespondent; cached: boolean } | undefined> {
  const hash = sha256(token);
  const hit = cachedRespondent(db, hash);
  if (hit) return { respondent: hit, cached: true };
  // Not kept here: read with the other answers' reads of this moment (respondent-reads.ts).
  const row = await readRespondent(db, hash);
  if (!row) return undefined;
  keepRespondent(db, row);
  return { respondent: row, cached: false };
}

/**
 * Checks and writes one page. `speculative` (a cached respondent): answers null instead of any
 * result not decided by its own successful write, so that the caller decides it on a fresh read.
 */
async function submitChecked(
  db: Db,
  respondent: RespondentRow & { project_status?: number },
  input: AnswerInput,
  now: number,
  speculative: boolean,
): Promise<SubmitResult | null> {
  const state = parsedStates.get(respondent) ?? (JSON.parse(respondent.state) as SurveyState);
  const same = () => {
    const old = state.replies[input.at];
    return old && old.questionId === input.questionId && sameReplyLoose(old.reply, input.reply);
  };
  if (respondent.status !== RESPONDENT_STATUS.started) {
    if (speculative) return null;
    if (same()) return { status: outcomeOf(respondent), answered: state.replies.length };
    throw fail(409, 'survey-done', (s) => s.errors.finished);
  }
  const projectStatus = respondent.project_status ?? (await projectStatusOf(db, respondent.project_id));
  if (availability(projectStatus) !== 'open') throw closedError(projectStatus);
  const content = await surveyContent(db, respondent.project_id);
  const start = { questionnaireId: state.start, seed: state.seed };
  if (!questionIds(content).has(input.questionId))
    throw fail(400, 'unknown-question', (s) => s.errors.unknownQuestion);
  if (input.at > state.replies.length) throw problemError({ code: 'notReachable' });
  const from = checkpoints.get(respondent) ?? null;
  if (input.at < state.replies.length) {
    if (same()) return speculative ? null : { status: 'started', answered: state.replies.length };
    // Going back: every page after `at` must have been reached in order.
    const before = runFlowFrom(content, start, state.replies, from).flow;
    const later = [
      ...before.pages.slice(input.at + 1),
      ...(before.next.kind === 'page' ? [before.next] : []),
    ];
    if (later.some((p) => !p.back)) throw fail(409, 'back-refused', (s) => s.errors.backRefused);
  }
  const replies = [...state.replies.slice(0, input.at), { questionId: input.questionId, reply: input.reply }];
  // A new page continues the replay kept from the last answer; a changed one replays from the start.
  const replay = runFlowFrom(content, start, replies, input.at === state.replies.length ? from : null);
  const flow = replay.flow;
  if (flow.error) throw problemError(flow.error.problem);
  const page = flow.pages[input.at];
  const q = page.question;
  if (q.category === 'cityAuto' && !cityIdSet().has(input.reply.text!.trim()))
    throw fail(400, 'unknown-place', (s) => s.errors.unknownPlace);
  if (q.category === 'regionAuto' && !regions().has(input.reply.text!.trim()))
    throw fail(400, 'unknown-place', (s) => s.errors.unknownPlace);

  const reply = normalizeReply(q, input.reply);
  replies[input.at] = { questionId: q.id, reply };
  const end = flow.next.kind === 'end' ? flow.next.reason : null;
  const next: SurveyState = {
    ...state,
    replies,
    orders: { ...state.orders, [q.id]: orderShown(page) },
    end,
    ...pageTimes(state, input.at, now, Number(respondent.updated_at)),
  };
  // The rows to drop: those of the pages replaced from `at` on, and this question's if it was answered
  // before. A page answered for the first time (most submissions) deletes nothing.
  const replaced = [
    ...new Set(
      state.replies
        .slice(input.at)
        .map((r) => r.questionId)
        .concat(state.replies.some((r) => r.questionId === q.id) ? [q.id] : []),
    ),
  ];
  let outcome: Outcome = end ?? 'started';
  let filledPortrait = false;
  const move = {
    state: JSON.stringify(next),
    // Strictly increasing per respondent: the write's check that nobody moved them meanwhile.
    updated_at: Math.max(now, Number(respondent.updated_at) + 1),
    status:
      end === 'completed'
        ? RESPONDENT_STATUS.completed
        : end
          ? RESPONDENT_STATUS.screenedOut
          : RESPONDENT_STATUS.started,
    finished_at: end ? now : null,
    // Where the respondent is now: the next page's question, or this one when the survey ends here.
    last_question_id: flow.next.kind === 'page' ? flow.next.question.id : q.id,
  };
  // Block callbacks: the delivery this page makes when it completes a block, written with the answer.
  const callback = await blockCallback(db, { content, flow, at: input.at, replies, respondent, now });
  const rows = replyRows(q, reply);
  // A page answered in another language than the respondent's stored one moves it (language.ts),
  // and with it every row of theirs the report's counters hold (keyed by language, 024).
  const language = pageLanguage(content, respondent.language, input.language);
  const counts = language
    ? languageMoveCounts(content, respondent, state.replies, replies, language)
    : replyCounts(content, respondent, state.replies.slice(input.at), replies[input.at]);
  const takesPlace = end === 'completed' && !!respondent.portrait_id;
  // A game player's answer to a writeToDb question also goes to their record (server/players).
  const toPlayer = playerWriteFor(respondent, q, reply, now);
  const onPostgres = dialectOf(db) === 'postgres';
  const write = async (trx: Db) => {
    // Only from the state checked above: a page sent twice at once is written once.
    if (!(await saveAnswer(trx, onPostgres, respondent, move, replaced, rows, counts))) return false;
    if (language) await setRespondentLanguage(trx, respondent.id, language);
    if (toPlayer) await toPlayer(trx);
    if (takesPlace) {
      if (!(await takeQuotaPlace(trx, respondent.project_id, respondent.portrait_id!))) {
        // The last place went to someone else a moment ago: kept, but not counted (never overshoots).
        outcome = 'quotaFull';
        await trx
          .updateTable('respondents')
          .set({
            status: RESPONDENT_STATUS.screenedOut,
            state: JSON.stringify({ ...next, end: 'quotaFull' }),
          })
          .where('id', '=', respondent.id)
          .execute();
      } else filledPortrait = true;
    }
    if (callback && outcome !== 'quotaFull') await writeDelivery(trx, callback);
    return true;
  };
  // PostgreSQL: the answer's one statement (shared with the answers arriving with it) is atomic by
  // itself; a transaction only when a completion also takes a portrait's place or writes a block
  // callback. SQLite: answers arriving together share one commit (one fsync).
  const written = !onPostgres
    ? await writeInGroup(db, write)
    : takesPlace || toPlayer || callback || language
      ? await db.transaction().execute(write)
      : await saveAnswerInGroup(db, { respondent, move, replaced, rows, counts });
  if (!written) {
    if (speculative) return null;
    // Someone (the same page sent twice at once) got there first, or the project closed meanwhile:
    // the same answer already stored → the same result.
    const fresh = await readRespondent(db, respondent.token_hash);
    const freshState = fresh ? (JSON.parse(fresh.state) as SurveyState) : null;
    if (fresh) keepRespondent(db, fresh);
    const old = freshState?.replies[input.at];
    if (fresh && old && old.questionId === q.id && sameReply(old.reply, reply))
      return { status: outcomeOf(fresh), answered: freshState!.replies.length };
    if (fresh && availability(fresh.project_status) !== 'open') throw closedError(fresh.project_status);
    throw fail(409, 'busy', (s) => s.errors.busy);
  }
  const kept = {
    ...respondent,
    project_status: ProjectStatus.OnRotation,
    ...move,
    status: (outcome as Outcome) === 'quotaFull' ? RESPONDENT_STATUS.screenedOut : move.status,
    language: language ?? respondent.language,
  };
  countAnswer(db, outcome);
  parsedStates.set(kept, next);
  if (replay.checkpoint) checkpoints.set(kept, replay.checkpoint);
  keepRespondent(db, kept);
  if (filledPortrait) await finishWhenFull(db, respondent.project_id, now);
  if (callback) wakeSender(db);
  if (outcome === 'completed') await judgeCompletion(db, kept, content, next);
  return { status: outcome, answered: replies.length };
}

/** The state of a kept respondent as written (never changed in place): not parsed again. */
const parsedStates = new WeakMap<object, SurveyState>();
/** Where the flow of a kept respondent's replies stands (the next answer continues from it). */
const checkpoints = new WeakMap<object, FlowCheckpoint>();

const questionSets = new WeakMap<ProjectContent, Set<string>>();
/** The content's question ids (per cached content, not per answer). */
function questionIds(content: ProjectContent): Set<string> {
  let ids = questionSets.get(content);
  if (!ids) {
    ids = new Set();
    for (const qn of content.questionnaires)
      for (const b of qn.blocks) for (const q of b.questions) ids.add(q.id);
    questionSets.set(content, ids);
  }
  return ids;
}

function sameReplyLoose(stored: Reply, sent: Reply): boolean {
  // The stored reply is normalized; compare the sent one the same way (field order, trimmed text).
  const keys = Object.keys(stored);
  const probe: Record<string, unknown> = {};
  for (const k of keys) probe[k] = (sent as Record<string, unknown>)[k];
  if (typeof probe.other === 'string') probe.other = probe.other.trim();
  if (typeof probe.text === 'string') probe.text = probe.text.trim();
  if (probe.cells && typeof probe.cells === 'object') {
    const c = probe.cells as Record<string, string>;
    probe.cells = Object.fromEntries(
      Object.keys(c)
        .sort()
        .map((k) => [k, c[k]]),
    );
  }
  return JSON.stringify(stored) === JSON.stringify(probe);
}

function orderShown(page: Page): string[] {
  return page.question.category === 'matrix'
    ? page.statements.map((s) => s.id)
    : page.answers.map((a) => a.id);
}

/**
 * When every portrait has its respondents, the project moves from On rotation to Survey finished
 * (the status machine's onRotation → surveyFinished), once, and the Logs say so.
 */
export async function finishWhenFull(db: Db, projectId: number, now: number): Promise<void> {
  const onPostgres = dialectOf(db) === 'postgres';
  const finish = async (trx: Db) => {
    const rows = await quotas(trx, projectId, onPostgres);
    if (rows.length === 0 || rows.some((r) => r.completed < r.target)) return false;
    if (!canSetStatus(ProjectStatus.OnRotation, ProjectStatus.SurveyFinished)) return false;
    const res = await trx
      .updateTable('projects')
      .set({ status: ProjectStatus.SurveyFinished, status_changed_at: now, updated_at: now })
      .where('id', '=', projectId)
      .where('status', '=', ProjectStatus.OnRotation)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  };
  // PostgreSQL: the quotas read locked, so an exclusion freeing a place meanwhile (issue 31,
  // server/responses/exclusion.ts) is waited for, or waits, and a project never finishes with a
  // place just freed. SQLite runs one write at a time.
  if (!(await (onPostgres ? db.transaction().execute(finish) : finish(db)))) return;
  await db
    .insertInto('history')
    .values({
      user_id: null,
      email: '',
      organization: '',
      chapter: 'projects',
      service: 'survey',
      message_key: 'projects.log.statusChanged',
      message_params: JSON.stringify({
        id: projectId,
        from: ProjectStatus.OnRotation,
        to: ProjectStatus.SurveyFinished,
      }),
      created_at: now,
    })
    .execute();
}

async function projectStatusOf(db: Db, projectId: number): Promise<number> {
  const row = await db.selectFrom('projects').select('status').where('id', '=', projectId).executeTakeFirst();
  return row?.status ?? ProjectStatus.Stopped;
}

/** Starts one respondent of a project On rotation and answers every page with `pick` (see docs/decisions/survey.md). */
export async function recordRespondent(
  db: Db,
  input: {
    projectId: number;
    attributes?: Attributes;
    source?: 'link' | 'sdk' | 'demo';
    locale?: SurveyLocale;
    /** The questionnaire language the respondent answers in (the source when absent). */
    language?: string;
    pick: (page: Page) => Reply;
    now?: number;
    /** Milliseconds the respondent spends on a page (demo data: realistic page times and durations). */
    pageMs?: (page: Page) => number;
  },
): Promise<{ respondentId: number; status: 'completed' | 'screenedOut' | 'quotaFull' }> {
  const project = await db
    .selectFrom('projects')
    .select(['id', 'status', 'template'])
    .where('id', '=', input.projectId)
    .executeTakeFirstOrThrow();
  const started = await startRespondent(db, {
    project,
    source: input.source ?? 'demo',
    attributes: input.attributes,
    locale: input.locale,
    languages: [input.language],
    now: input.now,
  });
  if (started.outcome !== 'started') return { respondentId: 0, status: 'quotaFull' };
  const content = await surveyContent(db, input.projectId);
  let clock = input.now ?? Date.now();
  for (let i = 0; i < 10_000; i++) {
    const row = await db
      .selectFrom('respondents')
      .selectAll()
      .where('id', '=', started.respondentId)
      .executeTakeFirstOrThrow();
    const state = JSON.parse(row.state) as SurveyState;
    const flow = runFlow(content, { questionnaireId: state.start, seed: state.seed }, state.replies);
    if (flow.next.kind === 'end' || row.status !== RESPONDENT_STATUS.started) {
      const status = outcomeOf(row);
      return { respondentId: row.id, status: status === 'started' ? 'completed' : status };
    }
    const page = flow.next;
    if (input.pageMs) clock += Math.max(1, Math.round(input.pageMs(page)));
    await submitPage(
      db,
      row,
      { at: page.index, questionId: page.question.id, reply: input.pick(page) },
      input.now === undefined && !input.pageMs ? undefined : clock,
    );
  }
  throw new Error('the flow did not end');
}

export { sha256 };
