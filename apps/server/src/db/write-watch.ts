import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type OperationNode,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { Database } from './schema';

/**
 * What a write path said it changed (see touchChanges): the tags of the public values it
 * affects, and the tables whose writes those tags fully describe.
 */
export interface Touched {
  tags: ReadonlySet<string>;
  tables: ReadonlySet<string>;
  /** What the write added, for cached copies that can take it in instead of being dropped. */
  added?: readonly Addition[];
}

/**
 * A row a write added, in the shape the cached copies tagged `tag` show it (a new comment as the
 * API returns it): the response cache updates such a copy in place instead of dropping it
 * (lib/response-cache.ts). `since` is when the write began (performance.now()): only a copy read
 * before then is sure not to show the row already.
 */
export interface Addition {
  tag: string;
  value: unknown;
  since: number;
}

/**
 * Tables a change was made to ('*' when the statement's table could not be read: raw SQL),
 * and what the write path declared about them, if it did.
 */
export type WriteListener = (tables: ReadonlySet<string>, touched?: Touched) => void;

/** Never sent to the database: the watched connection takes it as a declaration. */
const TOUCH_SQL = '/* inkwell: public data touched */';

/** Whether a query is touchChanges' declaration, which passes through Kysely but never reaches the database. */
export const isTouchDeclaration = (sql: string): boolean => sql === TOUCH_SQL;

/**
 * Declares, inside the transaction `db` runs, that its writes to `tables` change only the public
 * values tagged `tags`. The declaration travels with the connection, so it is reported with that
 * transaction's COMMIT and dropped by its ROLLBACK; a write to any other table is still reported
 * as undeclared. Outside a transaction (on a held connection: lib/tx.ts `oneStatement`) it is
 * the next statement's declaration, reported with it, and forgotten when the connection is released.
 */
export async function touchChanges(
  db: Kysely<Database>,
  tags: readonly string[],
  tables: readonly string[],
  added: readonly Addition[] = [],
): Promise<void> {
  await db.executeQuery(CompiledQuery.raw(TOUCH_SQL, [tags, tables, added]));
}

/**
 * Tells listeners (the public response cache) that data changed, after it is visible to other
 * connections: at once for a statement outside a transaction, at COMMIT for one inside (a
 * rolled-back transaction tells nobody). Watching the driver means no write path can forget it.
 */
export class WriteSignal {
  private readonly listeners = new Set<WriteListener>();

  on(listener: WriteListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(tables: ReadonlySet<string>, touched?: Touched): void {
    for (const listener of this.listeners) listener(tables, touched);
  }
}

const WRITE_SQL = /^\s*(insert|update|delete|replace|create|drop|alter)\b/i;
/**
 * Raw SQL that starts with WITH writes only if one of its parts does. A raw recursive read (the
 * sitemap's tag walk) was taken for a write, and each of its misses emptied the public cache.
 * Any INSERT, UPDATE or DELETE word counts: a read taken for a write costs the cache a refill, a
 * write taken for a read would leave it stale.
 */
const WRITING_WITH = /^\s*with\b[\s\S]*\b(insert|update|delete)\b/i;

function writtenTable(node: OperationNode): string | undefined {
  const table = (n: unknown) => (n as { table?: { identifier?: { name?: string } } } | undefined)?.table?.identifier?.name;
  switch (node.kind) {
    case 'InsertQueryNode':
      return table((node as unknown as { into: unknown }).into) ?? '*';
    case 'UpdateQueryNode':
      return table((node as unknown as { table: unknown }).table) ?? '*';
    case 'DeleteQueryNode':
      return table((node as unknown as { from: { froms: unknown[] } }).from.froms[0]) ?? '*';
    default:
      return undefined;
  }
}

/**
 * The tables a statement writes: its own and those of the data-modifying parts of its WITH
 * (PostgreSQL's single-statement writes, whose top level may be a SELECT).
 */
function writtenTables(node: OperationNode, into: Set<string>): Set<string> {
  const own = writtenTable(node);
  if (own) into.add(own);
  const ctes = (node as { with?: { expressions?: { expression: OperationNode }[] } }).with?.expressions ?? [];
  for (const cte of ctes) writtenTables(cte.expression, into);
  return into;
}

/** The tables a query writes ('*' for a raw write); empty for a read or transaction control. */
function writesOf(query: CompiledQuery): Set<string> {
  const tables = writtenTables(query.query, new Set());
  if (!tables.size && query.query.kind === 'RawNode' && (WRITE_SQL.test(query.sql) || WRITING_WITH.test(query.sql))) tables.add('*');
  return tables;
}

/** A watched connection: its statements, and a reset for when it goes back to the pool. */
type WatchedConnection = DatabaseConnection & { released(): void };

function watchConnection(connection: DatabaseConnection, signal: WriteSignal, afterCommit?: () => void): WatchedConnection {
  let pending: Set<string> | null = null;
  let touched: { tags: Set<string>; tables: Set<string>; added: Addition[] } | undefined;
  /** Outside a transaction: what the next statement on this connection was declared to change. */
  let next: Touched | undefined;
  return {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      if (query.sql === TOUCH_SQL) {
        const [tags, tables, added] = query.parameters as [string[], string[], Addition[]];
        if (pending) {
          touched ??= { tags: new Set(), tables: new Set(), added: [] };
          for (const t of tags) touched.tags.add(t);
          for (const t of tables) touched.tables.add(t);
          touched.added.push(...added);
        } else next = { tags: new Set(tags), tables: new Set(tables), added };
        return { rows: [] };
      }
      const declaredForThis = next;
      next = undefined;
      const result = await connection.executeQuery<R>(query);
      const sql = query.query.kind === 'RawNode' ? query.sql.trim().toLowerCase() : '';
      if (sql === 'begin' || sql.startsWith('start transaction') || sql.startsWith('begin ')) {
        pending = new Set();
        touched = undefined;
      } else if (sql === 'commit') {
        const tables = pending;
        const declared = touched;
        pending = null;
        touched = undefined;
        if (tables?.size || declared) signal.emit(tables ?? new Set(), declared);
        afterCommit?.();
      } else if (sql === 'rollback') {
        pending = null;
        touched = undefined;
      } else {
        const tables = writesOf(query);
        if (tables.size) {
          if (pending) for (const t of tables) pending.add(t);
          else {
            // A statement outside a transaction commits by itself: reported at once, with its declaration.
            signal.emit(tables, declaredForThis);
            afterCommit?.();
          }
        }
      }
      return result;
    },
    streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => connection.streamQuery<R>(query, chunkSize),
    released() {
      // A declaration never outlives the hold of the connection it was made on.
      next = undefined;
    },
  };
}

/**
 * The same dialect, with every connection reporting committed writes to signal. afterCommit runs
 * right after each commit, while the connection is still held (SQLite checkpoints use it).
 */
export function watchWrites(dialect: Dialect, signal: WriteSignal, afterCommit?: () => void): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver(): Driver {
      const driver = dialect.createDriver();
      const wrapped = new WeakMap<DatabaseConnection, WatchedConnection>();
      const unwrap = new WeakMap<WatchedConnection, DatabaseConnection>();
      const outer = (inner: DatabaseConnection) => {
        let c = wrapped.get(inner);
        if (!c) {
          c = watchConnection(inner, signal, afterCommit);
          wrapped.set(inner, c);
          unwrap.set(c, inner);
        }
        return c;
      };
      // The driver's own transaction calls run through the wrapper, so BEGIN/COMMIT are seen.
      return {
        init: () => driver.init(),
        acquireConnection: async () => outer(await driver.acquireConnection()),
        beginTransaction: (c: DatabaseConnection, settings: TransactionSettings) => driver.beginTransaction(c, settings),
        commitTransaction: (c: DatabaseConnection) => driver.commitTransaction(c),
        rollbackTransaction: (c: DatabaseConnection) => driver.rollbackTransaction(c),
        releaseConnection: (c: DatabaseConnection) => {
          const inner = unwrap.get(c as WatchedConnection);
          if (!inner) return driver.releaseConnection(c);
          (c as WatchedConnection).released();
          return driver.releaseConnection(inner);
        },
        savepoint: driver.savepoint?.bind(driver),
        rollbackToSavepoint: driver.rollbackToSavepoint?.bind(driver),
        releaseSavepoint: driver.releaseSavepoint?.bind(driver),
        destroy: () => driver.destroy(),
      };
    },
  };
}
