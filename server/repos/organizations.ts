import { sql } from 'kysely';
import type { Db } from '../db';
import type { Locales } from '../../src/i18n/i18n-types';
import type {
  Category,
  Organization,
  OrganizationTypeId,
  OrganizationsQuery,
} from '../../src/domain/organizations';
import { organizationNameKey } from '../../src/domain/organizations';
import { translateKey } from '../http/i18n';
import { containsPattern } from './people';

// Organizations and categories. Seeded categories are shown in the reader's language; one added
// later by hand keeps the name it was given.

function baseQuery(db: Db) {
  return db
    .selectFrom('organizations as o')
    .leftJoin('categories as c', 'c.id', 'o.category_id')
    .select([
      'o.id',
      'o.name',
      'o.type',
      'o.created_at',
      'c.id as cat_id',
      'c.name as cat_name',
      'c.code as cat_code',
    ]);
}
type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

function categoryName(locale: Locales, code: string | null, name: string): string {
  if (!code) return name;
  const text = translateKey(locale, `people.category.${code}`);
  return text.startsWith('people.') ? name : text;
}

function toOrganization(r: Row, locale: Locales): Organization {
  return {
    id: r.id,
    name: r.name,
    type: r.type as OrganizationTypeId,
    category:
      r.cat_id != null ? { id: r.cat_id, name: categoryName(locale, r.cat_code, r.cat_name ?? '') } : null,
    createdAt: r.created_at,
  };
}

export async function listCategories(db: Db, locale: Locales): Promise<Category[]> {
  const rows = await db.selectFrom('categories').select(['id', 'code', 'name']).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, code: r.code, name: categoryName(locale, r.code, r.name) }));
}

export async function categoryExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('categories').select('id').where('id', '=', id).executeTakeFirst());
}

export async function findOrganization(
  db: Db,
  id: number,
  locale: Locales,
): Promise<Organization | undefined> {
  const row = await baseQuery(db).where('o.id', '=', id).executeTakeFirst();
  return row && toOrganization(row, locale);
}

const SORTS = { name: sql`lower(o.name)`, type: sql`o.type`, createdAt: sql`o.created_at` } as const;

export async function listOrganizations(
  db: Db,
  q: OrganizationsQuery & { onlyId?: number | null },
  locale: Locales,
): Promise<{ items: Organization[]; total: number }> {
  let countQ = db.selectFrom('organizations as o').select((eb) => eb.fn.countAll<number>().as('n'));
  let pageQ = baseQuery(db);
  if (q.onlyId !== undefined) {
    countQ = countQ.where('o.id', '=', q.onlyId ?? -1);
    pageQ = pageQ.where('o.id', '=', q.onlyId ?? -1);
  }
  if (q.type) {
    countQ = countQ.where('o.type', '=', q.type);
    pageQ = pageQ.where('o.type', '=', q.type);
  }
  if (q.search) {
    const cond = sql<boolean>`coalesce(o.name_key, lower(o.name)) like ${containsPattern(q.search)} escape '\\'`;
    countQ = countQ.where(cond);
    pageQ = pageQ.where(cond);
  }
  const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
  const [count, rows] = await Promise.all([
    countQ.executeTakeFirstOrThrow(),
    pageQ
      .orderBy(sql`${SORTS[q.sort]} ${dir}`)
      .orderBy(sql`o.id ${dir}`)
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute(),
  ]);
  return { items: rows.map((r) => toOrganization(r, locale)), total: Number(count.n) };
}

export async function organizationNameTaken(db: Db, name: string): Promise<boolean> {
  const key = organizationNameKey(name);
  const row = await db
    .selectFrom('organizations')
    .select('id')
    .where(sql<boolean>`coalesce(name_key, lower(name)) = ${key}`)
    .executeTakeFirst();
  return !!row;
}

export async function insertOrganization(
  db: Db,
  o: { name: string; type: OrganizationTypeId; categoryId: number | null },
  now = Date.now(),
): Promise<number> {
  const row = await db
    .insertInto('organizations')
    .values({
      name: o.name.trim(),
      type: o.type,
      category_id: o.categoryId,
      created_at: now,
      name_key: organizationNameKey(o.name),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
