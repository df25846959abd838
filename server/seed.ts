import crypto from 'node:crypto';
import type { Db } from './db';
import type { Config } from './config';
import { Role, UserStatus } from '../src/domain/roles';
import { hashPassword } from './auth/password';

/**
 * Creates the first administrator when there is none. Returns the credentials to print, or null
 * when an administrator already exists (the password is then never printed again).
 */
export async function ensureAdmin(
  db: Db,
  config: Config,
): Promise<{ email: string; password: string } | null> {
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('role_id', '=', Role.Administrator)
    .executeTakeFirst();
  if (existing) return null;
  const password = config.adminPassword ?? `${crypto.randomBytes(9).toString('base64url')}a1`;
  const now = Date.now();
  await db
    .insertInto('users')
    .values({
      email: config.adminEmail,
      fullname: 'Administrator',
      role_id: Role.Administrator,
      status_id: UserStatus.Activated,
      organization_id: null,
      category_id: null,
      password_hash: await hashPassword(password, config.auth.scryptLogN),
      locale: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  return { email: config.adminEmail, password };
}
