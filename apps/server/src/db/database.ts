import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, type LogEvent, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { firstComeFirstServed } from './connection-queue';
import { statementNameOf } from './prepared';
import type { Database } from './schema';
import { startBackgroundCheckpoints } from './sqlite-checkpointer';
import { WriteSignal, watchWrites } from './write-watch';

export type Engine = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  /** PostgreSQL schema in use when not the default (tests). */
  pgSchema?: string;
  /** Fires after committed writes (the public response cache listens). */
  writes: WriteSignal;
  /** Every query's duration in milliseconds (metrics listen). */
  queryTimes: QueryTimes;
  /** PostgreSQL: the connection pool's state; undefined on SQLite (one connection). */
  poolStats?: () => { total: number; idle: number; waiting: number };
  destroy(): Promise<void>;
}

/** Listeners of query durations; no listener costs nothing beyond Kysely's own timing. */
export class QueryTimes {
  private readonly listeners = new Set<(ms: number) => void>();
  on(listener: (ms: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(ms: number): void {
    for (const listener of this.listeners) listener(ms);
  }
}

export interface DatabaseOptions {
  /** postgres://… selects PostgreSQL; unset selects SQLite; anything else is refused. */
  databaseUrl?: string;
  /** SQLite file, used when databaseUrl is not a PostgreSQL URL. */
  sqliteFile: string;
  /** PostgreSQL schema to use (tests isolate each file in its own schema). */
  pgSchema?: string;
  poolSize?: number;
  /** Sees every executed query (tests read query plans with it). */
  onQuery?: (query: CompiledQuery) => void;
  /** SQLite: checkpoint the WAL from a worker thread instead of inside commits (the server sets it). */
  backgroundCheckpoints?: boolean;
}

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

/** A timestamp as PostgreSQL writes it in UTC: "2026-11-26 15:00:21.123456+00" ('+00' absent without a time zone). */
const UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(?:\+00)?$/;

/**
 * A PostgreSQL timestamp as the ISO string in UTC with milliseconds that SQLite's rows hold. The
 * UTC form is rewritten as text; parsing it as a Date and back (the fallback, for any other form)
 * was 8.6 % of the server's CPU in a search at 1M posts, which reads up to 400 dates.
 */
export function pgTimestampToIso(v: string): string {
  const m = UTC_TIMESTAMP.exec(v);
  if (!m) return new Date(v.includes('+') || v.endsWith('Z') ? v : `${v}Z`).toISOString();
  return `${m[1]}T${m[2]}.${`${m[3] ?? ''}000`.slice(0, 3)}Z`;
}

/** Normalise PostgreSQL values to the same shapes SQLite returns. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (v: string) => Number.parseInt(v, 10); // int8: counts
    if (oid === 1184 || oid === 1114) return pgTimestampToIso;
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * Kysely prepares every query anew; parsing SQL was a visible share of each request. The same
 * SQL text reuses its prepared statement (Kysely runs one query at a time per connection).
 */
function withStatementCache(sqlite: SQLite.Database, max = 500): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop !== 'prepare') return Reflect.get(target, prop, receiver);
      return (source: string) => {
        let stmt = cache.get(source);
        if (!stmt) {
          if (cache.size >= max) cache.delete(cache.keys().next().value as string);
          stmt = prepare(source);
          cache.set(source, stmt);
        }
        return stmt;
      };
    },
  });
}

/** A client that runs the `prepared` queries given a statement name (db/prepared.ts) as named statements. */
class NamingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query overloads
  override query(config: any, values?: any, callback?: any): any {
    const name = typeof config === 'string' ? statementNameOf(config) : undefined;
    return name ? super.query({ name, text: config, values }, callback) : super.query(config, values, callback);
  }
}

function logger(options: DatabaseOptions, times: QueryTimes) {
  const { onQuery } = options;
  return (event: LogEvent) => {
    onQuery?.(event.query);
    times.emit(event.queryDurationMillis);
  };
}

/**
 * How long a pooled PostgreSQL connection may sit idle before it is closed. pg's default (10 s)
 * closed most of the pool between bursts of writes; each new connection is a new server process
 * that plans every named statement again (its first five runs each) with cold catalog caches.
 */
const POOL_IDLE_MS = 5 * 60_000;

export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  // A mistyped URL must never quietly give an empty SQLite database instead of the real one.
  if (options.databaseUrl && !isPostgresUrl(options.databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL (unset it to use SQLite)');
  }
  const queryTimes = new QueryTimes();
  if (isPostgresUrl(options.databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      idleTimeoutMillis: POOL_IDLE_MS,
      types: pgTypes as pg.CustomTypesConfig,
      options: options.pgSchema ? `-c search_path=${options.pgSchema}` : undefined,
      connectionTimeoutMillis: 5000,
      Client: NamingClient,
    });
    // An idle client losing its server must not crash the process.
    pool.on('error', () => {});
    // Nor a checked-out one: pg emits 'error' on a client whose server goes away (a restart
    // terminates every backend), and the pool listens only while the client is idle. One held
    // between the statements of a transaction had no listener: the process crashed. Its queries
    // fail on their own, and the pool drops it on release since it is no longer queryable.
    pool.on('connect', (client) => {
      client.on('error', () => {});
      // No JIT: it compiles a statement whose estimated cost passes jit_above_cost on every
      // execution (nothing is kept), and PostgreSQL prices a recursion over comments far above
      // its work: a page of a 20,000-reply thread read in 45 ms spent 300 ms more compiling it.
      // The app's statements are short reads and writes that never earn that back. A SET, queued
      // before the client's first query, not a startup option: PgBouncer refuses startup options
      // it does not track, and a startup option would hide PGOPTIONS. A server without the
      // setting (before PostgreSQL 11) refuses it, which changes nothing.
      client.query('SET jit = off').catch(() => {});
    });
    const writes = new WriteSignal();
    const db = new Kysely<Database>({ dialect: watchWrites(new PostgresDialect({ pool }), writes), log: logger(options, queryTimes) });
    return {
      db,
      engine: 'postgres',
      pgSchema: options.pgSchema,
      writes,
      queryTimes,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      destroy: () => db.destroy(),
    };
  }

  mkdirSync(path.dirname(options.sqliteFile), { recursive: true });
  const sqlite = new SQLite(options.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('cache_size = -64000');
  sqlite.pragma('temp_store = MEMORY');
  const writes = new WriteSignal();
  const checkpoints = options.backgroundCheckpoints ? startBackgroundCheckpoints(sqlite, options.sqliteFile) : undefined;
  const sqliteDialect = firstComeFirstServed(new SqliteDialect({ database: withStatementCache(sqlite) }));
  const dialect = watchWrites(sqliteDialect, writes, checkpoints?.afterCommit);
  const db = new Kysely<Database>({ dialect, log: logger(options, queryTimes) });
  return {
    db,
    engine: 'sqlite',
    writes,
    queryTimes,
    async destroy() {
      await checkpoints?.stop();
      await db.destroy();
    },
  };
}
