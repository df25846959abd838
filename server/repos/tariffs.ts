import type { Db } from '../db';
import type { CalculatorSettingsTable } from '../db/tables-games';
import {
  AUDIENCES,
  CALCULATOR_KEYS,
  type Audience,
  type CalculatorKey,
  type CalculatorSettings,
  type Tariff,
  type VkPercent,
} from '../../src/domain/pricing';
import { likePattern } from '../../src/domain/games';
import { sql } from 'kysely';

// Tariffs and the calculator's settings. The settings live in one row per audience; a change of
// either call rewrites both rows in one transaction, so nobody ever reads half a price list.

const COLUMN: Record<CalculatorKey, keyof CalculatorSettingsTable> = {
  basePrice: 'base_price',
  questionSurcharge: 'question_surcharge',
  questionStep: 'question_step',
  blockSurcharge: 'block_surcharge',
  blockProgressive: 'block_progressive',
  screeningPrice: 'screening_price',
  targetFilterSurcharge: 'target_filter_surcharge',
  filledBlockPrice: 'filled_block_price',
  completedSurveyPrice: 'completed_survey_price',
};

async function settingsRows(db: Db) {
  const rows = await db.selectFrom('calculator_settings').selectAll().execute();
  const byAudience = new Map(rows.map((r) => [r.audience, r]));
  // Both rows are seeded by the migration; their absence is a broken database, not a user error.
  return (a: Audience) => {
    const row = byAudience.get(a);
    if (!row) throw new Error(`calculator_settings has no row for ${a}`);
    return row;
  };
}

export async function readCalculator(db: Db): Promise<CalculatorSettings> {
  const row = await settingsRows(db);
  const one = (a: Audience) =>
    Object.fromEntries(
      CALCULATOR_KEYS.map((k) => [k, Number(row(a)[COLUMN[k]])]),
    ) as CalculatorSettings[Audience];
  return { researchers: one('researchers'), issuers: one('issuers') };
}

export async function writeCalculator(db: Db, settings: CalculatorSettings, userId: number): Promise<void> {
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (const a of AUDIENCES) {
      const values = Object.fromEntries(CALCULATOR_KEYS.map((k) => [COLUMN[k], settings[a][k]]));
      await trx
        .updateTable('calculator_settings')
        .set({ ...values, updated_by: userId, updated_at: now })
        .where('audience', '=', a)
        .execute();
    }
  });
}

export async function readVkPercent(db: Db): Promise<VkPercent> {
  const row = await settingsRows(db);
  return { researchers: row('researchers').vk_percent, issuers: row('issuers').vk_percent };
}

export async function writeVkPercent(db: Db, vk: VkPercent, userId: number): Promise<void> {
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (const a of AUDIENCES) {
      await trx
        .updateTable('calculator_settings')
        .set({ vk_percent: vk[a], updated_by: userId, updated_at: now })
        .where('audience', '=', a)
        .execute();
    }
  });
}

// ---- tariffs ----

const toTariff = (r: { id: number; name: string; discount: number; created_at: number }): Tariff => ({
  id: r.id,
  name: r.name,
  discount: r.discount,
  createdAt: r.created_at,
});

export async function listTariffs(
  db: Db,
  o: {
    search: string;
    sort?: 'name' | 'discount' | 'createdAt';
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
  },
): Promise<{ rows: Tariff[]; total: number }> {
  let q = db.selectFrom('tariffs');
  if (o.search) q = q.where(sql<boolean>`name_norm like ${likePattern(o.search)} escape '\\'`);
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const column = { name: 'name_norm', discount: 'discount', createdAt: 'created_at' } as const;
  const order = o.sort ? o.order : 'desc';
  const rows = await q
    .select(['id', 'name', 'discount', 'created_at'])
    .orderBy(column[o.sort ?? 'createdAt'], order)
    .orderBy('id', order)
    .limit(o.pageSize)
    .offset((o.page - 1) * o.pageSize)
    .execute();
  return { rows: rows.map(toTariff), total: Number(total) };
}

export async function findTariff(db: Db, id: number): Promise<Tariff | undefined> {
  const row = await db
    .selectFrom('tariffs')
    .select(['id', 'name', 'discount', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toTariff(row);
}

/** The tariff, or null when another one has that name (any case). */
export async function createTariff(
  db: Db,
  body: { name: string; discount: number },
  userId: number,
): Promise<Tariff | null> {
  return db.transaction().execute(async (trx) => {
    const norm = body.name.toLowerCase();
    if (await trx.selectFrom('tariffs').select('id').where('name_norm', '=', norm).executeTakeFirst())
      return null;
    const row = await trx
      .insertInto('tariffs')
      .values({
        name: body.name,
        name_norm: norm,
        discount: body.discount,
        created_by: userId,
        created_at: Date.now(),
      })
      .returning(['id', 'name', 'discount', 'created_at'])
      .executeTakeFirstOrThrow();
    return toTariff(row);
  });
}

/** 'taken' when another tariff has the new name; 'gone' when the tariff does not exist. */
export async function updateTariff(
  db: Db,
  id: number,
  body: { name: string; discount: number },
): Promise<Tariff | 'taken' | 'gone'> {
  return db.transaction().execute(async (trx) => {
    const norm = body.name.toLowerCase();
    const other = await trx
      .selectFrom('tariffs')
      .select('id')
      .where('name_norm', '=', norm)
      .where('id', '!=', id)
      .executeTakeFirst();
    if (other) return 'taken';
    const row = await trx
      .updateTable('tariffs')
      .set({ name: body.name, name_norm: norm, discount: body.discount })
      .where('id', '=', id)
      .returning(['id', 'name', 'discount', 'created_at'])
      .executeTakeFirst();
    return row ? toTariff(row) : 'gone';
  });
}
