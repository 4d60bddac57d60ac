import type { CompiledQuery, DatabaseConnection, Dialect, Driver, OperationNode, QueryResult, TransactionSettings } from 'kysely';

/** Tables a change was made to; '*' when the statement's table could not be read (raw SQL). */
export type WriteListener = (tables: ReadonlySet<string>) => void;

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

  emit(tables: ReadonlySet<string>): void {
    for (const listener of this.listeners) listener(tables);
  }
}

const WRITE_SQL = /^\s*(insert|update|delete|replace|with|create|drop|alter)\b/i;

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

/** The table a query writes, '*' for a raw write, undefined for a read or transaction control. */
function writeOf(query: CompiledQuery): string | undefined {
  const table = writtenTable(query.query);
  if (table) return table;
  return query.query.kind === 'RawNode' && WRITE_SQL.test(query.sql) ? '*' : undefined;
}

function watchConnection(connection: DatabaseConnection, signal: WriteSignal, afterCommit?: () => void): DatabaseConnection {
  let pending: Set<string> | null = null;
  return {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const result = await connection.executeQuery<R>(query);
      const sql = query.query.kind === 'RawNode' ? query.sql.trim().toLowerCase() : '';
      if (sql === 'begin' || sql.startsWith('start transaction') || sql.startsWith('begin ')) pending = new Set();
      else if (sql === 'commit') {
        const tables = pending;
        pending = null;
        if (tables?.size) signal.emit(tables);
        afterCommit?.();
      } else if (sql === 'rollback') pending = null;
      else {
        const table = writeOf(query);
        if (table) {
          if (pending) pending.add(table);
          else {
            signal.emit(new Set([table]));
            afterCommit?.();
          }
        }
      }
      return result;
    },
    streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => connection.streamQuery<R>(query, chunkSize),
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
      const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const unwrap = new WeakMap<DatabaseConnection, DatabaseConnection>();
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
        releaseConnection: (c: DatabaseConnection) => driver.releaseConnection(unwrap.get(c) ?? c),
        savepoint: driver.savepoint?.bind(driver),
        rollbackToSavepoint: driver.rollbackToSavepoint?.bind(driver),
        releaseSavepoint: driver.releaseSavepoint?.bind(driver),
        destroy: () => driver.destroy(),
      };
    },
  };
}
