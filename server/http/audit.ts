import type { FastifyRequest } from 'fastify';
import type { Db } from '../db';

// The Logs page (spec: email/user, organization, chapter, service, date, message). Every mutating
// call writes one entry through here. The message is stored as an i18n key with its params and
// translated into the reader's language by GET /history; nothing ever updates or deletes a row.

export interface AuditEntry {
  chapter: string;
  /** A dotted i18n key, e.g. "people.log.userCreated". */
  message: string;
  params?: Record<string, string | number>;
  /** Who acted, when the caller is not signed in yet (login, registration). */
  actor?: { id: number | null; email: string; organization?: string };
}

/** `db`: a transaction, when the entry must be written with the change it records. */
export async function audit(req: FastifyRequest, entry: AuditEntry, db: Db = req.server.db): Promise<void> {
  const user = req.auth?.user;
  const actor =
    entry.actor ?? (user ? { id: user.id, email: user.email, organization: user.organization?.name } : null);
  await db
    .insertInto('history')
    .values({
      user_id: actor?.id ?? null,
      email: actor?.email ?? '',
      organization: actor?.organization ?? '',
      chapter: entry.chapter,
      service: `${req.method} ${req.routeOptions.url ?? req.url}`.replace('/api/v1/service', ''),
      message_key: entry.message,
      message_params: JSON.stringify(entry.params ?? {}),
      created_at: Date.now(),
    })
    .execute();
}
