/**
 * Catches `db.query()` or `db.transaction()` called from inside a transaction's work: on PGlite
 * that waits for the transaction it is part of and hangs forever, and on Postgres it silently runs
 * outside the transaction. Either way the fix is to use the `tx` the work was given.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TransactionScope {
  /** Throws when called from inside work that `run` is running and that has not finished yet. */
  assertOutside(): void;
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createTransactionScope(): TransactionScope {
  // Per database, so that two open databases (tests, tools) never trip over each other.
  const storage = new AsyncLocalStorage<{ open: boolean }>();
  // Once run, an AsyncLocalStorage hooks every promise and callback of the process (Node 20), each
  // command's too: it is turned off whenever no transaction's work is running.
  let running = 0;
  return {
    assertOutside() {
      if (storage.getStore()?.open) {
        throw new Error('db.query() or db.transaction() was called inside a transaction: use the tx passed to the transaction work');
      }
    },
    async run(work) {
      // A flag rather than presence: callbacks scheduled inside the work may run after it ends.
      const marker = { open: true };
      running += 1;
      try {
        return await storage.run(marker, work);
      } finally {
        marker.open = false;
        running -= 1;
        // Disabled, it reads as outside everywhere, as the closed markers do; the next run enables it again.
        if (running === 0) storage.disable();
      }
    },
  };
}
