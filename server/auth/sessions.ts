import crypto from 'node:crypto';
import type { Db } from '../db';
import type { Config } from '../config';

// Sign-in sessions (DESIGN.md 5). A sign-in opens a family; each call that presents an expired
// access token with a valid refresh token rotates the pair, and the new one travels back in the same
// response's headers. A refresh token used twice (outside a short grace window that covers
// concurrent calls from one tab) means it was copied: the whole family is revoked.

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export type AuthResult =
  | {
      ok: true;
      userId: number;
      familyId: string;
      renewed: TokenPair | null;
      /** Set when the access token itself was valid: until when it and its family are. */
      expires?: { access: number; family: number };
    }
  | { ok: false; reason: 'missing' | 'invalid' | 'expired' | 'revoked' | 'reused' };

const newToken = () => crypto.randomBytes(32).toString('base64url');
export const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

async function insertPair(db: Db, familyId: string, cfg: Config['auth'], now: number): Promise<TokenPair> {
  const pair = { accessToken: newToken(), refreshToken: newToken() };
  await db
    .insertInto('auth_tokens')
    .values({
      family_id: familyId,
      access_hash: tokenHash(pair.accessToken),
      refresh_hash: tokenHash(pair.refreshToken),
      access_expires_at: now + cfg.accessTtlMs,
      rotated_at: null,
      created_at: now,
    })
    .execute();
  return pair;
}

export async function openSession(db: Db, userId: number, cfg: Config['auth'], now = Date.now()) {
  const familyId = crypto.randomUUID();
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('auth_families')
      .values({
        id: familyId,
        user_id: userId,
        created_at: now,
        expires_at: now + cfg.familyTtlMs,
        revoked_at: null,
      })
      .execute();
    return { familyId, ...(await insertPair(trx, familyId, cfg, now)) };
  });
}

export async function revokeFamily(db: Db, familyId: string, now = Date.now()) {
  await db
    .updateTable('auth_families')
    .set({ revoked_at: now })
    .where('id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every session of a user: deactivation, deletion and password changes call this. */
export async function revokeAllForUser(db: Db, userId: number, exceptFamilyId?: string, now = Date.now()) {
  let q = db
    .updateTable('auth_families')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (exceptFamilyId) q = q.where('id', '!=', exceptFamilyId);
  await q.execute();
}

export async function authenticate(
  db: Db,
  cfg: Config['auth'],
  accessToken: string | undefined,
  refreshToken: string | undefined,
  now = Date.now(),
): Promise<AuthResult> {
  if (!accessToken && !refreshToken) return { ok: false, reason: 'missing' };

  if (accessToken) {
    const row = await db
      .selectFrom('auth_tokens as t')
      .innerJoin('auth_families as f', 'f.id', 't.family_id')
      .select([
        't.access_expires_at',
        't.rotated_at',
        'f.id as family_id',
        'f.user_id',
        'f.revoked_at',
        'f.expires_at',
      ])
      .where('t.access_hash', '=', tokenHash(accessToken))
      .executeTakeFirst();
    if (
      row &&
      row.revoked_at === null &&
      row.expires_at > now &&
      row.rotated_at === null &&
      row.access_expires_at > now
    ) {
      return {
        ok: true,
        userId: row.user_id,
        familyId: row.family_id,
        renewed: null,
        expires: { access: Number(row.access_expires_at), family: Number(row.expires_at) },
      };
    }
  }
  if (!refreshToken) return { ok: false, reason: 'expired' };

  const row = await db
    .selectFrom('auth_tokens as t')
    .innerJoin('auth_families as f', 'f.id', 't.family_id')
    .select(['t.id', 't.rotated_at', 'f.id as family_id', 'f.user_id', 'f.revoked_at', 'f.expires_at'])
    .where('t.refresh_hash', '=', tokenHash(refreshToken))
    .executeTakeFirst();
  if (!row) return { ok: false, reason: 'invalid' };
  if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
  if (row.expires_at <= now) return { ok: false, reason: 'expired' };

  if (row.rotated_at !== null) {
    if (now - row.rotated_at <= cfg.reuseGraceMs) {
      // A call that left before its sibling's rotation reached the client: serve it, the sibling's
      // response carries the new pair.
      return { ok: true, userId: row.user_id, familyId: row.family_id, renewed: null };
    }
    await revokeFamily(db, row.family_id, now);
    return { ok: false, reason: 'reused' };
  }

  const renewed = await db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('auth_tokens')
      .set({ rotated_at: now })
      .where('id', '=', row.id)
      .where('rotated_at', 'is', null)
      .executeTakeFirst();
    // Another process rotated it between our read and this write: same as the grace case.
    if (Number(res.numUpdatedRows) !== 1) return null;
    return insertPair(trx, row.family_id, cfg, now);
  });
  return { ok: true, userId: row.user_id, familyId: row.family_id, renewed };
}
