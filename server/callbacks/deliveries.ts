import crypto from 'node:crypto';
import type { Db } from '../db';
import type { Block, ProjectContent, Question } from '../../src/domain/content/model';
import type { FlowResult, Reply, ReplyEntry } from '../../src/domain/flow';

// Block callbacks, the writing side (docs/decisions/callbacks.md). When the page a respondent answers
// is the last of a block on their path (the next page is in another block, or the survey ends
// completed), and that block has a callbackUrl, a delivery is written into the outbox in the same
// transaction as the answer: a commit that keeps the answer keeps the delivery, and a crash before
// the commit keeps neither. The sender (sender.ts) calls the address afterwards.

export type Executor = Pick<Db, 'selectFrom' | 'insertInto' | 'updateTable'>;

export interface CallbackAnswer {
  questionId: string;
  /** Picked answers (in ranked order for a ranking; "statementId:answerId" for a matrix). */
  answerIds: string[];
  /** Open text, the "other" answer's text, or the place picked; null when none. */
  text: string | null;
  value: number | null;
}

export interface CallbackBody {
  id: string;
  event: 'block.completed';
  /** ISO 8601, UTC. */
  occurredAt: string;
  project: { id: number; name: string };
  block: { id: string; name: string; customParams: string };
  respondent: { id: number | null; gameId: number | null; playerId: string | null };
  answers: CallbackAnswer[];
  /** Only on a test call from the editor. */
  test?: true;
}

/** A delivery to write, made before the answer's transaction. */
export interface PendingDelivery {
  id: string;
  projectId: number;
  blockId: string;
  respondentId: number | null;
  url: string;
  body: string;
  test: boolean;
  at: number;
}

function findBlock(content: ProjectContent, id: string): Block | null {
  for (const qn of content.questionnaires) for (const b of qn.blocks) if (b.id === id) return b;
  return null;
}

/** The block that the page at `at` completes, or null (pure: the flow decides). */
export function completedBlock(content: ProjectContent, flow: FlowResult, at: number): Block | null {
  const page = flow.pages[at];
  if (!page) return null;
  const next = flow.next;
  if (next.kind === 'end' ? next.reason !== 'completed' : next.blockId === page.blockId) return null;
  return findBlock(content, page.blockId);
}

export function callbackAnswer(q: Pick<Question, 'id' | 'category'>, reply: Reply): CallbackAnswer {
  const text = (reply.text ?? '').trim() || (reply.other ?? '').trim() || null;
  return {
    questionId: q.id,
    answerIds:
      q.category === 'matrix'
        ? Object.entries(reply.cells ?? {}).map(([s, a]) => `${s}:${a}`)
        : [...(reply.answers ?? [])],
    text,
    value: typeof reply.value === 'number' ? reply.value : null,
  };
}

// Project names change rarely; reading one per completion would cost a round trip in the answer's
// path. A name at most 5 s old is good enough for a callback's body.
const names = new WeakMap<Db, Map<number, { name: string; at: number }>>();
async function projectName(db: Db, projectId: number, now: number): Promise<string> {
  let map = names.get(db);
  if (!map) names.set(db, (map = new Map()));
  const hit = map.get(projectId);
  if (hit && now - hit.at < 5000) return hit.name;
  const row = await db.selectFrom('projects').select('name').where('id', '=', projectId).executeTakeFirst();
  if (map.size > 1000) map.clear();
  map.set(projectId, { name: row?.name ?? '', at: now });
  return row?.name ?? '';
}

export function bodyText(b: CallbackBody): string {
  return JSON.stringify(b);
}

/**
 * The delivery an answer makes, or null: the page at `at` completes a block with a callbackUrl.
 * Called before the answer's write; `writeDelivery` then writes it inside the write's transaction.
 */
export async function blockCallback(
  db: Db,
  input: {
    content: ProjectContent;
    flow: FlowResult;
    at: number;
    replies: ReplyEntry[];
    respondent: { id: number; project_id: number; game_id: number | null; player_id: string | null };
    now: number;
  },
): Promise<PendingDelivery | null> {
  const block = completedBlock(input.content, input.flow, input.at);
  if (!block || !block.callbackUrl) return null;
  const answers: CallbackAnswer[] = [];
  input.flow.pages.forEach((p, i) => {
    if (p.blockId === block.id && input.replies[i])
      answers.push(callbackAnswer(p.question, input.replies[i].reply));
  });
  const r = input.respondent;
  const id = crypto.randomUUID();
  const body: CallbackBody = {
    id,
    event: 'block.completed',
    occurredAt: new Date(input.now).toISOString(),
    project: { id: r.project_id, name: await projectName(db, r.project_id, input.now) },
    block: { id: block.id, name: block.name, customParams: block.customParams },
    respondent: { id: r.id, gameId: r.game_id, playerId: r.player_id },
    answers,
  };
  return {
    id,
    projectId: r.project_id,
    blockId: block.id,
    respondentId: r.id,
    url: block.callbackUrl,
    body: bodyText(body),
    test: false,
    at: input.now,
  };
}

/** Writes a delivery into the outbox (in the caller's transaction). A block completed again by the
 *  same respondent (after going back) is not delivered twice. */
export async function writeDelivery(trx: Executor, d: PendingDelivery): Promise<void> {
  await trx
    .insertInto('callback_deliveries')
    .values({
      id: d.id,
      project_id: d.projectId,
      block_id: d.blockId,
      respondent_id: d.respondentId,
      url: d.url,
      body: d.body,
      test: d.test ? 1 : 0,
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      next_attempt_at: d.at,
      lease_until: null,
      created_at: d.at,
      delivered_at: null,
    })
    .onConflict((oc) => oc.columns(['respondent_id', 'block_id']).doNothing())
    .execute();
}

// ---------------------------------------------------------------------------------------------
// The project's secret and the signature.

export const newSecret = () => `whsec_${crypto.randomBytes(32).toString('base64url')}`;

/** The project's callback secret, made on first use (two makers at once: the first one wins). */
export async function callbackSecret(db: Db, projectId: number): Promise<string> {
  const row = await db
    .selectFrom('project_callback_secrets')
    .select('secret')
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (row) return row.secret;
  await db
    .insertInto('project_callback_secrets')
    .values({ project_id: projectId, secret: newSecret(), created_at: Date.now() })
    .onConflict((oc) => oc.column('project_id').doNothing())
    .execute();
  return callbackSecret(db, projectId);
}

/** Replaces the project's secret: calls signed from now on use the new one. */
export async function rotateSecret(db: Db, projectId: number): Promise<string> {
  const secret = newSecret();
  await db
    .insertInto('project_callback_secrets')
    .values({ project_id: projectId, secret, created_at: Date.now() })
    .onConflict((oc) => oc.column('project_id').doUpdateSet({ secret, created_at: Date.now() }))
    .execute();
  return secret;
}

/** X-Survey-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">. */
export function signature(secret: string, body: string, unixSeconds: number): string {
  const mac = crypto.createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
