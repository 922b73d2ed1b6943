import SQLite from "better-sqlite3";
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, type SqliteDatabase, sql } from "kysely";
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { RecentlyUsed } from "../lib/recently-used";
import type { Database } from "./schema";

export type Db = Kysely<Database>;
export type Engine = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: Db;
  engine: Engine;
  /** where it lives, without credentials, for log lines */
  location: string;
  close(): Promise<void>;
}

export class DatabaseOpenError extends Error {}

// PostgreSQL sends bigint (int8) and numeric as strings; counts and sums of kobo fit in a JS number,
// so they are converted here, once, for every query.
const PG_INT8 = 20;
const PG_NUMERIC = 1700;
function pgTypes(types: typeof pg.types) {
  return {
    getTypeParser(oid: number, format?: "text" | "binary") {
      if (oid === PG_INT8 || oid === PG_NUMERIC) return (value: string) => Number(value);
      return types.getTypeParser(oid, format);
    },
  };
}

/** The PostgreSQL client library, loaded only by a shop that uses PostgreSQL (it holds about 15 MB). */
export async function loadPg(): Promise<typeof pg> {
  return (await import("pg")).default;
}

export function isPostgres(db: Kysely<unknown> | Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(unparseable URL)";
  }
}

/**
 * The database file is readable by the shop's user only: created 0600 (SQLite gives its -wal and -shm
 * files the same mode), and tightened when an older version left it readable by others.
 */
function keepPrivate(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, "a", 0o600));
    if (fs.statSync(file).mode & 0o077) fs.chmodSync(file, 0o600);
  } catch {
    // Not ours to change (or not there): SQLite reports what matters when it opens the file.
  }
}

/**
 * Every commit waits until it is on the disk, so an order survives a power cut; a shopper's views and
 * cart changes are the exceptions (withoutWaitingForDisk).
 */
export const SQLITE_SYNCHRONOUS = "FULL";

/**
 * Runs `work` in one transaction committed without waiting for the disk: for writes a shopper would
 * not miss after a power cut, their product views and their cart (docs/decisions/172). The
 * database stays consistent; only the last such commits may be lost, and any commit that waits (an
 * order, a payment) takes them to the disk with it. On SQLite the connection is held from relaxing the
 * setting to restoring it, so no other transaction (an order among them) commits in between; on
 * PostgreSQL the setting is the transaction's own. It opens its own transaction: call it with the
 * database, never from inside another transaction.
 */
export async function withoutWaitingForDisk<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  // Inside another transaction its own "begin" and "commit" would end that one early.
  if (db.isTransaction) throw new Error("withoutWaitingForDisk opens its own transaction: call it with the database");
  if (isPostgres(db)) {
    // Opened and relaxed in one round trip: a statement without values is sent as a simple query,
    // which may hold two. Each round trip wakes a PostgreSQL backend: the transaction's own were three.
    return db.connection().execute(async (connection) => {
      await sql`begin; set local synchronous_commit = off`.execute(connection);
      let result: T;
      try {
        result = await work(connection);
      } catch (error) {
        await sql`rollback`.execute(connection).catch(() => {});
        throw error;
      }
      await sql`commit`.execute(connection);
      return result;
    });
  }
  return db.connection().execute(async (connection) => {
    await sql`pragma synchronous = normal`.execute(connection);
    try {
      return await connection.transaction().execute(work);
    } finally {
      await sql`pragma synchronous = ${sql.raw(SQLITE_SYNCHRONOUS)}`.execute(connection);
    }
  });
}

/** How often the planner's statistics are brought up to date on a long-lived SQLite connection. */
export const STATISTICS_UPKEEP_MS = 6 * 60 * 60 * 1000;

/** Statements kept for reuse, the most recently used; queries with many `in (…)` values vary. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The database as the query builder sees it, preparing each distinct SQL text once: preparing is a
 * good part of a small query's cost, and every page asks the same few. Safe because the driver runs
 * one statement at a time to completion (nothing here streams rows).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new RecentlyUsed<string, SQLite.Statement>(STATEMENT_CACHE_SIZE);
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      let statement = statements.get(sqlText);
      if (!statement) {
        statement = sqlite.prepare(sqlText);
        statements.set(sqlText, statement);
      }
      return statement;
    },
  };
}

/**
 * Removes the samples of indexed values ANALYZE keeps (`sqlite_stat4`; the driver's SQLite is built
 * with them), keeping its per-index averages (`sqlite_stat1`). With samples, SQLite prepares a
 * statement again every time a value compared with a sampled index is sent, so that the plan fits the
 * value: that is nearly every statement the shop runs, each looked up by a key, and it cost a signed-in
 * page's one statement 33 µs against 6 (docs/decisions/170).
 */
function forgetSampledValues(sqlite: SQLite.Database): void {
  if (!sqlite.prepare("select 1 from sqlite_master where name = 'sqlite_stat4'").get()) return;
  sqlite.exec("delete from sqlite_stat4");
  // The planner reads the statistics tables again.
  sqlite.exec("analyze sqlite_schema");
}

/**
 * `readsOnly`: a second connection of the same server that must never write (once the render
 * thread's, which docs/decisions/216 removed). In WAL mode a transaction that has read and then writes fails at once
 * (SQLITE_BUSY) if another connection wrote in between; the server's own transactions read first, so
 * any write by a second connection could fail a shopper's cart change or sign-in. Such a connection
 * keeps no statistics (PRAGMA optimize writes them) and refuses writes (query_only).
 */
function openSqlite(file: string, readsOnly = false): DatabaseHandle {
  let sqlite: SQLite.Database;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    keepPrivate(file);
    sqlite = new SQLite(file, { timeout: 5000 });
    // Reading the schema first fails fast on a file that is not a database, before anything is written.
    sqlite.prepare("select count(*) from sqlite_master").get();
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    if (readsOnly) sqlite.pragma("query_only = ON");
  } catch (error) {
    throw new DatabaseOpenError(`Cannot open the SQLite database at ${file}: ${(error as Error).message}`);
  }
  // The query planner's table statistics, brought up to date where a table has grown or shrunk a lot
  // since they were taken (SQLite's own advice for long-lived connections: on opening, then now and
  // then). Taken when the shop had one customer, they made the session lookup read every customer on
  // every signed-in page. Bounded by SQLite, so quick even on a large database.
  const updateStatistics = (mask = "") => {
    try {
      sqlite.pragma(`optimize${mask}`);
      forgetSampledValues(sqlite);
    } catch {
      // Busy or closing: statistics can wait for the next turn; the shop works without them.
    }
  };
  if (!readsOnly) updateStatistics(" = 0x10002");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const upkeep = readsOnly ? undefined : setInterval(updateStatistics, STATISTICS_UPKEEP_MS);
  upkeep?.unref();
  return {
    db,
    engine: "sqlite",
    location: file,
    close: () => {
      clearInterval(upkeep);
      return db.destroy();
    },
  };
}

/** Statements named on a pool's connections at most: each is kept by PostgreSQL per connection. */
const PREPARED_MAX = 200;
const PREPARED_MARK = "/* prepared */";

/**
 * Put at the end of a statement (`.modifyEnd(PREPARED)`, or at the end of raw SQL) to have it sent
 * named on PostgreSQL, that is prepared once per connection (docs/decisions/160). PostgreSQL plans an
 * unnamed statement every time it is sent, and for the small indexed statements that every page made
 * from the cached page runs, planning costs more than running them. A named statement is planned on
 * its first five calls on a connection; then PostgreSQL keeps one generic plan when it is no dearer
 * than those made for the values. Only for statements whose text does not vary and whose best plan
 * does not depend on the values (lookups by key): the catalogue's listings and searches are left to be
 * planned for their values. SQLite reads it as a comment.
 */
export const PREPARED = sql.raw(PREPARED_MARK);

/**
 * A row count written into a statement's text rather than sent as a value, for limits that never
 * change. PostgreSQL keeps a statement's generic plan only when it is no dearer than the plans made
 * for the values, and a generic plan that does not know the limit is costed as if it read a tenth of
 * the table, so it was planned every time. SQLite ran a subquery with a sent limit for each row several
 * times slower (the session's hearts: 33 µs against 7, docs/decisions/170).
 */
export function preparedLimit(rows: number) {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new RangeError(`not a row count: ${rows}`);
  return sql.lit(rows);
}

/** The name a marked statement is sent under; none for others, or once PREPARED_MAX texts are named. */
export class StatementNames {
  #names = new Map<string, string>();

  nameFor(text: string): string | undefined {
    if (!text.endsWith(PREPARED_MARK)) return undefined;
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < PREPARED_MAX) {
      name = `unboxed_${this.#names.size + 1}`;
      this.#names.set(text, name);
    }
    return name;
  }
}

/** Makes a connection send the statements `names` names as prepared statements. */
function sendNamed(client: pg.PoolClient, names: StatementNames): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  // The query builder sends (text, values); anything else is passed on as it is.
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    if (args.length === 2 && typeof text === "string" && Array.isArray(values)) {
      const name = names.nameFor(text);
      if (name !== undefined) return query({ name, text, values });
    }
    return query(...args);
  }) as typeof client.query;
}

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const pg = await loadPg();
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: pgTypes(pg.types), connectionTimeoutMillis: 10_000 });
  // An idle connection closed by the server (restart, failover, administrator) is an "error" event on
  // the pool; with no listener Node would end the whole process. The pool has already dropped that
  // connection and opens a new one for the next query, so there is nothing else to do.
  pool.on("error", () => {});
  const names = new StatementNames();
  pool.on("connect", (client) => sendNamed(client, names));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy().catch(() => {});
    throw new DatabaseOpenError(`Cannot connect to the PostgreSQL database at ${redact(url)}: ${(error as Error).message}`);
  }
  return { db, engine: "postgres", location: redact(url), close: () => db.destroy() };
}

export async function openDatabase(options: {
  databaseUrl: string | null;
  sqlitePath: string;
  poolSize?: number;
  /** on SQLite, a connection that never writes (openSqlite) */
  readsOnly?: boolean;
}): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : openSqlite(options.sqlitePath, options.readsOnly);
}

/** The current time as stored in every *_at column. */
export function now(): string {
  return new Date().toISOString();
}
