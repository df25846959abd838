import type { Db } from '../db';
import type { User } from '../../src/domain/user';
import { roleById, type UserStatusId } from '../../src/domain/roles';

// Reading users in the shape every call returns (src/domain/user.ts). Password hashes never leave
// this module except through `passwordHashOf`.

function baseQuery(db: Db) {
  return db
    .selectFrom('users as u')
    .leftJoin('organizations as o', 'o.id', 'u.organization_id')
    .leftJoin('categories as c', 'c.id', 'u.category_id')
    .select([
      'u.id',
      'u.email',
      'u.fullname',
      'u.role_id',
      'u.status_id',
      'u.locale',
      'u.created_at',
      'o.id as org_id',
      'o.name as org_name',
      'o.type as org_type',
      'c.id as cat_id',
      'c.name as cat_name',
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

export function toUser(r: Row): User {
  return {
    id: r.id,
    email: r.email,
    fullname: r.fullname,
    role: roleById(r.role_id)!,
    statusId: r.status_id as UserStatusId,
    organization: r.org_id != null ? { id: r.org_id, name: r.org_name ?? '', type: r.org_type ?? 0 } : null,
    category: r.cat_id != null ? { id: r.cat_id, name: r.cat_name ?? '' } : null,
    locale: r.locale === 'en' || r.locale === 'ru' ? r.locale : null,
    createdAt: r.created_at,
  };
}

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  const row = await baseQuery(db).where('u.id', '=', id).executeTakeFirst();
  return row && toUser(row);
}

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const row = await baseQuery(db).where('u.email', '=', email.trim().toLowerCase()).executeTakeFirst();
  return row && toUser(row);
}

export async function passwordHashOf(db: Db, id: number): Promise<string | null> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirst();
  return row?.password_hash ?? null;
}

export { baseQuery as usersQuery };
