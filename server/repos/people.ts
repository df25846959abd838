import { sql } from 'kysely';
import type { Db } from '../db';
import { compiledOnce, dialectOf, listTotal, pageBound, runCompiled } from '../db';
import type { User } from '../../src/domain/user';
import type { UsersQuery } from '../../src/domain/users';
import { EpochProbe } from '../http/session-read';
import { toUser, usersQuery } from './users';

// Listing and writing users for the administration pages. Reads go through repos/users.ts so every
// call returns the same user shape.

/** What search matches: email and full name, lower-cased in JS so Cyrillic folds in SQLite too. */
export function searchTextOf(email: string, fullname: string): string {
  return `${email} ${fullname}`.toLowerCase();
}

/** A LIKE pattern that matches `term` anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const SORT_COLUMNS = {
  email: sql`u.email`,
  fullname: sql`lower(u.fullname)`,
  organization: sql`coalesce(o.name, '')`,
  category: sql`coalesce(c.name, '')`,
  status: sql`u.status_id`,
  createdAt: sql`u.created_at`,
} as const;

/** The statements of a page of users, compiled; they read only their arguments (compiledOnce). */
function userStatements(db: Db, q: UsersQuery, probe: EpochProbe) {
  const searchCond = q.search
    ? sql<boolean>`coalesce(u.search_text, lower(u.email || ' ' || u.fullname)) like ${containsPattern(q.search)} escape '\\'`
    : null;

  let countQ = db.selectFrom('users as u').select((eb) => eb.fn.countAll<number>().as('n'));
  let pageQ = usersQuery(db);
  if (q.roles.length > 0) {
    countQ = countQ.where('u.role_id', 'in', q.roles);
    pageQ = pageQ.where('u.role_id', 'in', q.roles);
  }
  if (searchCond) {
    countQ = countQ.where(searchCond);
    pageQ = pageQ.where(searchCond);
  }
  const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
  // On PostgreSQL the page and its full count in one statement (an uncorrelated subquery: run once),
  // one round trip; SQLite plans such a count worse than alone and has no round trip to save
  // (docs/decisions/reads.md).
  const onPostgres = dialectOf(db) === 'postgres';
  const page = probe
    .on(pageQ)
    .select(() => (onPostgres ? countQ.as('total') : sql<number>`null`.as('total')))
    .orderBy(sql`${SORT_COLUMNS[q.sort]} ${dir}`)
    .orderBy(sql`u.id ${dir}`)
    .limit(pageBound(q.pageSize))
    .offset(pageBound((q.page - 1) * q.pageSize));
  return { onPostgres, page: page.compile(), count: countQ.compile() };
}

/** One page of users with the full count (GET /users). */
export async function listUsers(
  db: Db,
  q: UsersQuery,
  probe = EpochProbe.off,
): Promise<{ items: User[]; total: number }> {
  const { onPostgres, page, count } = compiledOnce(db, JSON.stringify(['users', q, probe.active]), () =>
    userStatements(db, q, probe),
  );
  const rows = await runCompiled(db, page);
  probe.saw(rows);
  const total = await listTotal(onPostgres, rows, q.page, async () => (await runCompiled(db, count))[0].n);
  return { items: rows.map(toUser), total };
}

export async function emailTaken(db: Db, email: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where('email', '=', email);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

/** True for a unique-constraint failure in either database (a double submit, a race). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when a row cannot go because another table still points at it. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

export async function hasPassword(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .executeTakeFirst();
  return !!row?.password_hash;
}
