import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type Compilable,
  type DatabaseConnection,
  type SqliteDialectConfig,
} from 'kysely';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

// int8 (counts, millisecond times) comes back from pg as a string; every value we keep in int8
// fits a double, so parse it once here rather than at every call site.
pg.types.setTypeParser(20, (v) => Number(v));

// Which database a Kysely instance talks to, for the few queries written differently on each.
const dialects = new WeakMap<Db, Dialect>();
/** The dialect of a database opened by openDatabase (undefined for any other instance). */
export const dialectOf = (db: Db): Dialect | undefined => dialects.get(db);
const pools = new WeakMap<Db, pg.Pool>();
const walFiles = new WeakMap<Db, string>();
/** The write-ahead log of a SQLite database opened for writing by openDatabase (else undefined). */
export const walFileOf = (db: Db): string | undefined => walFiles.get(db);
/** The PostgreSQL pool behind a database opened by openDatabase (undefined on SQLite): the metrics read it. */
export const poolOf = (db: Db): pg.Pool | undefined => pools.get(db);

/**
 * Runs one statement on PostgreSQL as a named prepared statement, outside any transaction: each
 * connection parses and plans it once instead of on every call (Kysely sends every query unnamed,
 * so PostgreSQL parses, analyses and plans it each time). For the few hot statements whose text
 * never changes (server/repos/respondents.ts saveAnswer); `name` must be unique to that text.
 */
export async function runPrepared<R>(db: Db, name: string, text: string, values: unknown[]): Promise<R[]> {
  const pool = pools.get(db);
  if (!pool) throw new Error('runPrepared needs a PostgreSQL database opened by openDatabase');
  const result = await pool.query({ name, text, values });
  return result.rows as R[];
}

// Names of the texts runCompiled prepares, one per text in the process (pg refuses a name reused
// for another text on a connection). Bounded: the lists' texts vary only with their filters.
const preparedNames = new Map<string, string>();
const MAX_PREPARED = 500;

/**
 * Runs a query built with Kysely; on PostgreSQL as a named prepared statement (runPrepared), so each
 * pooled connection parses, analyses and plans each text once rather than on every call: for a list
 * page that was as much of PostgreSQL's work as running it (GET /games: 1.3 ms of planning against
 * 0.4 ms of execution; docs/decisions/reads.md). Only for reads outside a transaction; the rows come
 * back as Kysely's execute() would give them (no plugins are installed).
 */
export async function runCompiled<R>(db: Db, query: Compilable<R> | CompiledQuery<R>): Promise<R[]> {
  const compiled = 'compile' in query ? query.compile() : query;
  if (dialectOf(db) !== 'postgres') return (await db.executeQuery(compiled)).rows;
  let name = preparedNames.get(compiled.sql);
  if (name === undefined && preparedNames.size < MAX_PREPARED) {
    name = `k${preparedNames.size}`;
    preparedNames.set(compiled.sql, name);
  }
  if (name === undefined) return (await db.executeQuery(compiled)).rows;
  return runPrepared<R>(db, name, compiled.sql, compiled.parameters as unknown[]);
}

// Compiled statements of the lists by what they were built from (compiledOnce), per database.
const compiledStatements = new WeakMap<Db, Map<string, unknown>>();
const MAX_COMPILED = 1_000;

/**
 * What `build` returns (compiled statements) for `key`, built once per key and database: building
 * and compiling a list's page with Kysely was 5–9 % of the server's main thread under load
 * (docs/decisions/reads.md). `key` must name everything `build` reads, and `build` read nothing
 * else: the caller's role and organization, the whole query, whether the epoch is probed.
 */
export function compiledOnce<T>(db: Db, key: string, build: () => T): T {
  let cache = compiledStatements.get(db);
  if (!cache) compiledStatements.set(db, (cache = new Map()));
  let hit = cache.get(key) as T | undefined;
  if (hit === undefined) {
    hit = build();
    // Searches make new keys without end: start afresh rather than keep every one.
    if (cache.size >= MAX_COMPILED) cache.clear();
    cache.set(key, hit);
  }
  return hit;
}

/**
 * A page's LIMIT or OFFSET written into the statement's text rather than bound as a parameter.
 * PostgreSQL keeps one plan for a prepared statement (runCompiled) only when that generic plan is
 * estimated as cheap as planning each call with the values; with LIMIT $1 it cannot know the page is
 * 20 rows, estimates far more, and planned every call again (a profile: the planner was most of the
 * backends' time). For integers the caller has validated; anything else is a bug.
 */
export function pageBound(n: number) {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a page bound: ${n}`);
  return sql.lit(n);
}

/**
 * A list's full count. On PostgreSQL it rides on every row of the page (a subquery of the page's
 * statement); a page past the end has no row to carry it, so it is 0 on the first page and counted
 * alone on a later one. On SQLite it is always counted alone (docs/decisions/reads.md).
 */
export async function listTotal(
  onPostgres: boolean,
  rows: readonly { total: unknown }[],
  page: number,
  countAlone: () => Promise<unknown>,
): Promise<number> {
  if (onPostgres && rows.length > 0) return Number(rows[0].total);
  if (onPostgres && page === 1) return 0;
  return Number(await countAlone());
}

export interface DbHandle {
  db: Db;
  dialect: Dialect;
}

/** Opens the database: PostgreSQL when a URL is given, else a SQLite file in dataDir. */
export function openDatabase(
  opts: { databaseUrl: string | null; dataDir: string },
  onConnectionError: (err: Error) => void = (err) => console.error('database connection lost', err),
): DbHandle {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection that PostgreSQL drops (a restart, a failover, an administrator) is reported
    // here and replaced on the next query; without a listener it would crash the process.
    pool.on('error', onConnectionError);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    dialects.set(db, 'postgres');
    pools.set(db, pool);
    return { db, dialect: 'postgres' };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const sqlite = new SQLite(sqliteFile(opts.dataDir));
  // WAL with synchronous=FULL: a call that answered 200 survives kill -9 (DESIGN.md 5).
  const journal = sqlite.pragma('journal_mode = WAL', { simple: true });
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  const handle = sqliteHandle(sqlite, true);
  // Answers flush this file themselves (server/survey/group-commit.ts); only when there is one.
  if (journal === 'wal') walFiles.set(handle.db, `${sqliteFile(opts.dataDir)}-wal`);
  return handle;
}

/** The SQLite file of a data directory. */
export const sqliteFile = (dataDir: string) => path.join(dataDir, 'survey.sqlite');

/**
 * SQLite transactions that take the write lock at BEGIN. A deferred one (Kysely's `begin`) reads
 * first and asks for the lock at its first write; when another process (npm run demo, a script on
 * the same file) has committed in between, SQLite answers SQLITE_BUSY at once, without waiting out
 * busy_timeout (the transaction's snapshot is stale), and the call failed with a 500. Taken at
 * BEGIN, the lock is waited for like any other. The process's own calls share one connection, so
 * they were serialized already.
 */
class WriteLockDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class WriteLockDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new WriteLockDriver(this.#config);
  }
}

function sqliteHandle(sqlite: SQLite.Database, writes = false): DbHandle {
  sqlite.pragma('busy_timeout = 5000');
  // SQLite's own lower() folds only ASCII; PostgreSQL's folds every script. Replace it with a
  // Unicode one so search and sorting treat «Мария» and «мария» alike on both databases. It must
  // stay deterministic: index expressions on lower(...) are built with it.
  sqlite.function('lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  const config = { database: withStatementCache(sqlite) };
  const db = new Kysely<Database>({
    dialect: writes ? new WriteLockDialect(config) : new SqliteDialect(config),
  });
  dialects.set(db, 'sqlite');
  return { db, dialect: 'sqlite' };
}

/**
 * A second, read-only way into the database the server opened with openDatabase, for a worker
 * thread (server/reports/download-threads.ts): on SQLite its own connection to the same file in
 * read-only mode (WAL lets it read beside the server's writes); on PostgreSQL its own small pool.
 * Nothing is migrated or configured for writing here: the server did that before.
 */
export function openReadDatabase(
  opts: { databaseUrl: string | null; dataDir: string },
  onConnectionError: (err: Error) => void = (err) => console.error('database connection lost', err),
): DbHandle {
  if (opts.databaseUrl) {
    // The report's few queries side by side, as on the server's own pool.
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 4 });
    pool.on('error', onConnectionError);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    dialects.set(db, 'postgres');
    pools.set(db, pool);
    return { db, dialect: 'postgres' };
  }
  return sqliteHandle(new SQLite(sqliteFile(opts.dataDir), { readonly: true, fileMustExist: true }));
}

/**
 * Kysely prepares every query again; preparing costs about as much as running a small one. Keeps
 * the prepared statements of the most recent SQL texts (a statement still being iterated by a
 * stream is busy, so a second user of the same text gets a fresh one).
 */
function withStatementCache(sqlite: SQLite.Database, size = 500) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      const hit = statements.get(text);
      if (hit && !hit.busy) return hit;
      const statement = sqlite.prepare(text);
      if (!hit) {
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}
