import type { DatabaseConnection, Dialect, Driver } from 'kysely';

/**
 * The same dialect, its connection given out first come, first served (SQLite's one connection).
 *
 * Kysely's SQLite driver guards the connection with a mutex that wakes every waiter on release and
 * lets whoever asks first after that take it: a request reaching the mutex in that instant went
 * before all those already waiting. Requests that came back at a pace matching the holder's did so
 * at every release, and a transaction waiting behind them waited until they stopped
 * (connection-queue.test.ts). Here the waiters queue, and a release hands the turn to the oldest
 * of them: the connection is never free while anyone waits, so the driver's own mutex is only
 * ever taken uncontended. Kysely acquires once for a whole transaction, so a transaction keeps
 * its turn from BEGIN to COMMIT or ROLLBACK, as before.
 */
export function firstComeFirstServed(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver(): Driver {
      const driver = dialect.createDriver();
      /** Those waiting for their turn, oldest first. */
      const waiting: (() => void)[] = [];
      let taken = false;
      /** The turn goes to the oldest waiter, or is free when nobody waits. */
      const handOn = () => {
        const next = waiting.shift();
        if (next) next();
        else taken = false;
      };
      return {
        init: () => driver.init(),
        async acquireConnection(): Promise<DatabaseConnection> {
          if (taken) await new Promise<void>((resolve) => waiting.push(resolve));
          else taken = true;
          try {
            return await driver.acquireConnection();
          } catch (err) {
            handOn();
            throw err;
          }
        },
        releaseConnection(connection: DatabaseConnection): Promise<void> {
          try {
            return driver.releaseConnection(connection);
          } finally {
            // At once: the next holder's acquire waits, if need be, on the driver's own (uncontended) lock.
            handOn();
          }
        },
        beginTransaction: (c, settings) => driver.beginTransaction(c, settings),
        commitTransaction: (c) => driver.commitTransaction(c),
        rollbackTransaction: (c) => driver.rollbackTransaction(c),
        savepoint: driver.savepoint?.bind(driver),
        rollbackToSavepoint: driver.rollbackToSavepoint?.bind(driver),
        releaseSavepoint: driver.releaseSavepoint?.bind(driver),
        destroy: () => driver.destroy(),
      };
    },
  };
}
