import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db';
import { compiledOnce, dialectOf, listTotal, pageBound, runCompiled } from '../db';
import type { User } from '../../src/domain/user';
import type { Locales } from '../../src/i18n/i18n-types';
import { Role } from '../../src/domain/roles';
import { isGameStatusId, GameStatus } from '../../src/domain/gameStatus';
import {
  likePattern,
  maskSecret,
  type Currency,
  type Game,
  type GameSecrets,
  type GameSortKey,
  type LookupItem,
} from '../../src/domain/games';
import { notFound } from '../http/errors';
import { EpochProbe } from '../http/session-read';

// Queries of the game registry. Game secrets: the API key and the token are made here from 192 and
// 256 random bits, handed back once, and kept only as SHA-256 hashes plus their first and last
// characters for the masked display. Hashing is enough (no slow KDF): the secrets are random, not
// chosen by people, so there is nothing to guess.

export type LookupTable = 'game_genres' | 'game_platforms';

// ---- lookups ----

export async function listLookup(db: Db, table: LookupTable, locale: Locales): Promise<LookupItem[]> {
  const col = locale === 'en' ? 'name_en' : 'name_ru';
  const rows = await db
    .selectFrom(table)
    .select(['id', 'name_ru', 'name_en'])
    .orderBy(col)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: locale === 'en' ? r.name_en : r.name_ru }));
}

export async function lookupExists(
  db: Db,
  table: LookupTable | 'game_currencies',
  id: number,
): Promise<boolean> {
  return !!(await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst());
}

/** Adds a genre or platform; null when the name exists already (in either language, any case). */
export async function createLookup(db: Db, table: LookupTable, name: string): Promise<LookupItem | null> {
  const norm = name.toLowerCase();
  return db.transaction().execute(async (trx) => {
    const taken = await trx
      .selectFrom(table)
      .select('id')
      .where((eb) => eb.or([eb('norm_ru', '=', norm), eb('norm_en', '=', norm)]))
      .executeTakeFirst();
    if (taken) return null;
    const row = await trx
      .insertInto(table)
      .values({ name_ru: name, name_en: name, norm_ru: norm, norm_en: norm, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, name };
  });
}

const currencyNames: Partial<Record<Locales, Intl.DisplayNames>> = {};
function currencyName(code: string, locale: Locales): string {
  const names = (currencyNames[locale] ??= new Intl.DisplayNames([locale], { type: 'currency' }));
  const name = names.of(code) ?? code;
  // Intl names currencies in lower case in Russian ("российский рубль"); a list item starts upper.
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

export async function listCurrencies(db: Db, locale: Locales): Promise<Currency[]> {
  const rows = await db.selectFrom('game_currencies').select(['id', 'code']).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, code: r.code, name: currencyName(r.code, locale) }));
}

// ---- games ----

function gamesQuery(db: Db) {
  return db
    .selectFrom('games as g')
    .innerJoin('game_genres as ge', 'ge.id', 'g.genre_id')
    .innerJoin('game_platforms as gp', 'gp.id', 'g.platform_id')
    .innerJoin('game_currencies as gc', 'gc.id', 'g.currency_id')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id');
}

const GAME_COLUMNS = [
  'g.id',
  'g.name',
  'g.organization_id',
  'g.status',
  'g.url',
  'g.api_key_prefix',
  'g.api_key_suffix',
  'g.token_prefix',
  'g.token_suffix',
  'g.sdk_connected_at',
  'g.last_sdk_at',
  'g.created_at',
  'g.updated_at',
  'ge.id as genre_id',
  'ge.name_ru as genre_ru',
  'ge.name_en as genre_en',
  'gp.id as platform_id',
  'gp.name_ru as platform_ru',
  'gp.name_en as platform_en',
  'gc.id as currency_id',
  'gc.code as currency_code',
  'o.name as org_name',
] as const;

const selectGames = (db: Db) => gamesQuery(db).select(GAME_COLUMNS);
type GameRow = Awaited<ReturnType<ReturnType<typeof selectGames>['executeTakeFirstOrThrow']>>;

function toGame(r: GameRow, locale: Locales): Game {
  const en = locale === 'en';
  return {
    id: r.id,
    name: r.name,
    genre: { id: r.genre_id, name: en ? r.genre_en : r.genre_ru },
    platform: { id: r.platform_id, name: en ? r.platform_en : r.platform_ru },
    organization: { id: r.organization_id, name: r.org_name },
    statusId: isGameStatusId(r.status) ? r.status : GameStatus.Disabled,
    url: r.url,
    currency: { id: r.currency_id, code: r.currency_code, name: currencyName(r.currency_code, locale) },
    apiKeyMasked: maskSecret(r.api_key_prefix, r.api_key_suffix),
    tokenMasked: maskSecret(r.token_prefix, r.token_suffix),
    sdkConnectedAt: r.sdk_connected_at,
    lastSdkAt: r.last_sdk_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export interface GamesListOptions {
  /** Only this organization's games; null for every organization. */
  organizationId: number | null;
  search: string;
  sort?: GameSortKey;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
  locale: Locales;
}

/** The statements of a page of games, compiled; they read only their arguments (compiledOnce). */
function gameStatements(db: Db, o: GamesListOptions, probe: EpochProbe) {
  // The filters touch the games table only, so the count runs without the joins.
  let counted = db.selectFrom('games as g');
  let q = gamesQuery(db);
  if (o.organizationId !== null) {
    counted = counted.where('g.organization_id', '=', o.organizationId);
    q = q.where('g.organization_id', '=', o.organizationId);
  }
  if (o.search) {
    const pattern = likePattern(o.search);
    const nameOrUrl = sql<boolean>`(g.name_norm like ${pattern} escape '\\' or lower(g.url) like ${pattern} escape '\\')`;
    counted = counted.where(nameOrUrl);
    q = q.where(nameOrUrl);
  }
  const count = counted.select((eb) => eb.fn.countAll<number>().as('total'));
  const en = o.locale === 'en';
  const sortColumn = {
    name: 'g.name_norm',
    genre: en ? 'ge.name_en' : 'ge.name_ru',
    platform: en ? 'gp.name_en' : 'gp.name_ru',
    organization: 'o.name',
    status: 'g.status',
    url: 'g.url',
    currency: 'gc.code',
    createdAt: 'g.created_at',
  } as const;
  // The ids of the page, sorted on narrow rows, then those games in full: sorting whole joined rows
  // to throw most of them away made deep pages several times slower. On PostgreSQL both in one
  // statement, the page's ids a derived table with the full count beside them (an uncorrelated
  // subquery: run once): each statement is a round trip (docs/decisions/reads.md). SQLite has no
  // round trip to save, plans such a count worse than alone and was slower with the derived table:
  // two steps and the count alone there.
  const onPostgres = dialectOf(db) === 'postgres';
  const sortBy = sortColumn[o.sort ?? 'createdAt'];
  const dir = o.sort ? o.order : 'desc';
  const pageIds = q
    .select(['g.id', () => (onPostgres ? count.as('total') : sql<number>`null`.as('total'))])
    .orderBy(sortBy, dir)
    .orderBy('g.id', dir)
    .limit(pageBound(o.pageSize))
    .offset(pageBound((o.page - 1) * o.pageSize));
  return {
    /** PostgreSQL: the page's games in full, with the count. */
    full: onPostgres
      ? probe
          .on(selectGames(db))
          .innerJoin(pageIds.as('page'), 'page.id', 'g.id')
          .select('page.total')
          .orderBy(sortBy, dir)
          .orderBy('g.id', dir)
          .compile()
      : null,
    /** SQLite: the page's ids. */
    ids: onPostgres ? null : probe.on(pageIds).compile(),
    count: count.compile(),
  };
}

export async function listGames(
  db: Db,
  o: GamesListOptions,
  probe = EpochProbe.off,
): Promise<{ rows: Game[]; total: number }> {
  const statements = compiledOnce(db, JSON.stringify(['games', o, probe.active]), () =>
    gameStatements(db, o, probe),
  );
  let rows: GameRow[];
  let total: number;
  if (statements.full) {
    const full = await runCompiled(db, statements.full);
    probe.saw(full);
    rows = full;
    total = await listTotal(
      true,
      full,
      o.page,
      async () => (await runCompiled(db, statements.count))[0].total,
    );
  } else {
    const page = await runCompiled(db, statements.ids!);
    probe.saw(page);
    const ids = page.map((r) => r.id);
    const full = ids.length ? await selectGames(db).where('g.id', 'in', ids).execute() : [];
    const byId = new Map(full.map((r) => [r.id, r]));
    rows = ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
    total = Number((await runCompiled(db, statements.count))[0].total);
  }
  return { rows: rows.map((r) => toGame(r, o.locale)), total };
}

export async function findGame(db: Db, id: number, locale: Locales): Promise<Game | undefined> {
  const row = await selectGames(db).where('g.id', '=', id).executeTakeFirst();
  return row && toGame(row, locale);
}

/** Administrators see every game; an Issuer only their organization's; nobody else any. */
export function canSeeGame(user: User, organizationId: number): boolean {
  if (user.role.id === Role.Administrator) return true;
  return user.role.id === Role.Issuer && user.organization?.id === organizationId;
}

/** A game the user may see and change, or 404 as if it did not exist. */
export async function gameFor(db: Db, user: User, id: number, locale: Locales): Promise<Game> {
  const game = await findGame(db, id, locale);
  if (!game || !canSeeGame(user, game.organization.id)) throw notFound((t) => t.games.errors.notFound());
  return game;
}

// ---- secrets ----

export const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export interface NewSecrets {
  secrets: GameSecrets;
  columns: {
    api_key_hash: string;
    api_key_prefix: string;
    api_key_suffix: string;
    token_hash: string;
    token_prefix: string;
    token_suffix: string;
  };
}

/** The prefixes say what a string is when it turns up in a log or a config file. */
export function newSecrets(): NewSecrets {
  const apiKey = `gk_${crypto.randomBytes(24).toString('base64url')}`;
  const token = `gt_${crypto.randomBytes(32).toString('base64url')}`;
  return {
    secrets: { apiKey, token },
    columns: {
      api_key_hash: sha256(apiKey),
      api_key_prefix: apiKey.slice(0, 7),
      api_key_suffix: apiKey.slice(-4),
      token_hash: sha256(token),
      token_prefix: token.slice(0, 7),
      token_suffix: token.slice(-4),
    },
  };
}

const DUMMY_HASH = sha256('no game has this token');

/**
 * The game whose key and token these are, or null. The token is compared in constant time, and a
 * key that matches no game still costs one comparison, so timing tells nothing about either.
 */
export async function gameBySecrets(db: Db, apiKey: string, token: string) {
  const row = await db
    .selectFrom('games as g')
    .innerJoin('organizations as o', 'o.id', 'g.organization_id')
    .select(['g.id', 'g.name', 'g.status', 'g.token_hash', 'g.sdk_connected_at', 'o.name as org_name'])
    .where('g.api_key_hash', '=', sha256(apiKey))
    .executeTakeFirst();
  const given = Buffer.from(sha256(token), 'hex');
  const expected = Buffer.from(row?.token_hash ?? DUMMY_HASH, 'hex');
  const same = crypto.timingSafeEqual(given, expected);
  return row && same ? row : null;
}
