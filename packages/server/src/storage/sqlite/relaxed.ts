import type Database from 'better-sqlite3';

/** The database's `synchronous` setting by name. */
export function synchronousOf(db: Database.Database): string {
  return (['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const)[db.pragma('synchronous', { simple: true }) as number]!;
}

/**
 * Runs a write of bookkeeping (delivery claims and attempts, function invocations) with `synchronous = NORMAL`: its
 * commit is not synced to disk at once, which saves the document writes of the same process from waiting behind one
 * fsync per claim, attempt or invocation. A power loss (not a crash of the process) can then forget the last of
 * them: a delivery is simply made again (delivery is at least once), an invocation is missing from the history.
 * Documents and events commit as configured. Exact because better-sqlite3 runs each transaction to its end before
 * any other JavaScript.
 */
export function relaxed<A extends unknown[], R>(
  db: Database.Database,
  transaction: { immediate(...args: A): R },
  synchronous: string,
): (...args: A) => R {
  return (...args) => {
    if (synchronous === 'NORMAL' || synchronous === 'OFF') return transaction.immediate(...args);
    db.pragma('synchronous = NORMAL');
    try {
      return transaction.immediate(...args);
    } finally {
      db.pragma(`synchronous = ${synchronous}`);
    }
  };
}
