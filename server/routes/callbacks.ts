import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  CallbacksQuery,
  RETRYABLE,
  RetryBody,
  SecretBody,
  TestCallBody,
  type Delivery,
  type DeliveryPage,
  type DeliveryStatus,
} from '../../src/domain/callbacks';
import { PidQuery } from '../../src/domain/projects';
import { can } from '../../src/domain/permissions';
import type { User } from '../../src/domain/user';
import { audit } from '../http/audit';
import { requireUser } from '../http/context';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { parse } from '../http/validate';
import { projectFor } from '../repos/projects';
import { loadContent } from '../repos/content';
import {
  bodyText,
  callbackSecret,
  rotateSecret,
  writeDelivery,
  type CallbackBody,
} from '../callbacks/deliveries';
import { wakeSender } from '../callbacks/sender';

// Block callbacks' calls (docs/decisions/callbacks.md). The secret, a retry and a test call belong to
// the roles that may change block settings (project-editor.change-block-settings: Administrator,
// Moderator), on a project they see; the delivery log to whoever may read the project.

function mayChangeCallbacks(user: User) {
  if (!can(user.role.id, 'project-editor.change-block-settings')) throw forbidden();
}

export default async function callbackRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get('/project/callback-secret', async (req, reply) => {
    const me = requireUser(req);
    mayChangeCallbacks(me);
    const { pid } = parse(PidQuery, req.query);
    const p = await projectFor(db, me, pid, 'read');
    reply.header('cache-control', 'no-store');
    return { pid: p.id, secret: await callbackSecret(db, p.id) };
  });

  app.post('/project/callback-secret', async (req, reply) => {
    const me = requireUser(req);
    mayChangeCallbacks(me);
    const { pid } = parse(SecretBody, req.body);
    const p = await projectFor(db, me, pid, 'read');
    const secret = await rotateSecret(db, p.id);
    await audit(req, { chapter: 'projects', message: 'callbacks.log.secretRotated', params: { id: p.id } });
    reply.header('cache-control', 'no-store');
    return { pid: p.id, secret };
  });

  app.get('/project/callbacks', async (req, reply): Promise<DeliveryPage> => {
    const me = requireUser(req);
    const q = parse(CallbacksQuery, req.query);
    const p = await projectFor(db, me, q.pid, 'read');
    let base = db.selectFrom('callback_deliveries').where('project_id', '=', p.id);
    if (q.blockId) base = base.where('block_id', '=', q.blockId);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(q.limit).offset(q.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    reply.header('cache-control', 'no-store');
    return {
      total: Number(count.n),
      items: rows.map((r): Delivery => ({
        id: r.id,
        blockId: r.block_id,
        url: r.url,
        status: r.status as DeliveryStatus,
        attempts: Number(r.attempts),
        lastStatusCode: r.last_status_code,
        lastError: r.last_error,
        nextAttemptAt: r.status === 'pending' ? Number(r.next_attempt_at) : null,
        createdAt: Number(r.created_at),
        deliveredAt: r.delivered_at === null ? null : Number(r.delivered_at),
        test: r.test === 1,
      })),
    };
  });

  app.post('/project/callbacks/retry', async (req) => {
    const me = requireUser(req);
    mayChangeCallbacks(me);
    const body = parse(RetryBody, req.body);
    const p = await projectFor(db, me, body.pid, 'read');
    const now = Date.now();
    const res = await db
      .updateTable('callback_deliveries')
      .set({ status: 'pending', next_attempt_at: now, lease_until: null })
      .where('id', '=', body.id)
      .where('project_id', '=', p.id)
      .where('status', 'in', [...RETRYABLE])
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) {
      const row = await db
        .selectFrom('callback_deliveries')
        .select('status')
        .where('id', '=', body.id)
        .where('project_id', '=', p.id)
        .executeTakeFirst();
      if (!row) throw notFound((t) => t.callbacks.errors.notFound());
      throw conflict((t) => t.callbacks.errors.notRetryable(), { code: 'not-retryable' });
    }
    wakeSender(db);
    await audit(req, {
      chapter: 'projects',
      message: 'callbacks.log.retried',
      params: { id: p.id, delivery: body.id },
    });
    return { id: body.id, status: 'pending' as const };
  });

  app.post('/project/callbacks/test', async (req) => {
    const me = requireUser(req);
    mayChangeCallbacks(me);
    const body = parse(TestCallBody, req.body);
    const p = await projectFor(db, me, body.pid, 'read');
    const { content } = await loadContent(db, p.id);
    const block = content.questionnaires.flatMap((qn) => qn.blocks).find((b) => b.id === body.blockId);
    if (!block) throw badRequest((t) => t.callbacks.errors.unknownBlock(), { field: 'blockId' });
    if (!block.callbackUrl)
      throw badRequest((t) => t.callbacks.errors.noUrl(), { field: 'blockId', code: 'no-callback-url' });
    const now = Date.now();
    const id = crypto.randomUUID();
    const payload: CallbackBody = {
      id,
      event: 'block.completed',
      occurredAt: new Date(now).toISOString(),
      project: { id: p.id, name: p.name },
      block: { id: block.id, name: block.name, customParams: block.customParams },
      respondent: { id: null, gameId: null, playerId: null },
      answers: [],
      test: true,
    };
    await writeDelivery(db, {
      id,
      projectId: p.id,
      blockId: block.id,
      respondentId: null,
      url: block.callbackUrl,
      body: bodyText(payload),
      test: true,
      at: now,
    });
    wakeSender(db);
    await audit(req, {
      chapter: 'projects',
      message: 'callbacks.log.testSent',
      params: { id: p.id, block: block.id },
    });
    return { id, status: 'pending' as const };
  });
}
