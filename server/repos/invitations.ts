import crypto from 'node:crypto';
import type { Db } from '../db';
import { tokenHash } from '../auth/sessions';
import { LINK_TTL_MS, TOKEN_PATTERN } from '../../src/domain/users';

// Mailed links (invitations and password resets). The token itself only travels in the mail; we
// keep its SHA-256, so a copy of the database opens no account.

export type TokenPurpose = 'invitation' | 'reset';

export async function issueToken(db: Db, userId: number, purpose: TokenPurpose, now = Date.now()) {
  const token = crypto.randomBytes(32).toString('base64url');
  const row = await db
    .insertInto('user_tokens')
    .values({
      user_id: userId,
      purpose,
      token_hash: tokenHash(token),
      created_at: now,
      expires_at: now + LINK_TTL_MS,
      used_at: null,
      revoked_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, id: row.id };
}

/** Revokes a user's open links (of one purpose, or all), except the one just mailed. */
export async function revokeTokens(
  db: Db,
  userId: number,
  opts: { purpose?: TokenPurpose; exceptId?: number } = {},
  now = Date.now(),
) {
  let q = db
    .updateTable('user_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null);
  if (opts.purpose) q = q.where('purpose', '=', opts.purpose);
  if (opts.exceptId) q = q.where('id', '!=', opts.exceptId);
  await q.execute();
}

export async function deleteToken(db: Db, id: number) {
  await db.deleteFrom('user_tokens').where('id', '=', id).execute();
}

export type TokenCheck =
  | { ok: true; id: number; userId: number; purpose: TokenPurpose }
  | { ok: false; reason: 'malformed' | 'unknown' | 'used' | 'expired' };

/** What a presented token is: spec section 8 names an error for each way it can fail. */
export async function checkToken(db: Db, token: string, now = Date.now()): Promise<TokenCheck> {
  if (!TOKEN_PATTERN.test(token)) return { ok: false, reason: 'malformed' };
  const row = await db
    .selectFrom('user_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash(token))
    .executeTakeFirst();
  // A revoked link (replaced by a newer invitation) is as good as unknown to its holder.
  if (!row || row.revoked_at !== null) return { ok: false, reason: 'unknown' };
  if (row.used_at !== null) return { ok: false, reason: 'used' };
  if (row.expires_at <= now) return { ok: false, reason: 'expired' };
  return { ok: true, id: row.id, userId: row.user_id, purpose: row.purpose };
}

/** Marks the link used; false when a concurrent call used it first. */
export async function useToken(db: Db, id: number, now = Date.now()): Promise<boolean> {
  const res = await db
    .updateTable('user_tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
