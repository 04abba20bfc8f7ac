import type Database from 'better-sqlite3';

/** A write waiting for its group: the work to run in its savepoint and how to tell its caller. */
interface Pending<T = unknown> {
  work: () => T;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
  result?: Outcome<T>;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** What the group commits have done since the database opened, for metrics and tests. */
export interface GroupCommitStats {
  /** Transactions committed (one sync to disk each with `synchronous = FULL`). */
  groups: number;
  /** Writes acknowledged through them. */
  writes: number;
}

/**
 * Group commit for SQLite: writes that arrive together share one transaction, so with `synchronous = FULL` one
 * sync to disk makes all of them durable instead of one sync each.
 *
 * better-sqlite3 is synchronous, so a commit holds the event loop while it syncs; requests that arrive meanwhile
 * are read in the next poll phase, and each enqueues its write here. The group runs at `setImmediate`, right
 * after that poll phase: a lone write waits for nothing but the end of the current phase, and a busy server
 * commits as many writes at once as arrived during the previous sync. Each write runs in its own savepoint, so
 * one that fails (a taken id, a lost idempotency race, an aborted batch) rolls back alone and its neighbours
 * commit. Every write's promise settles only after the group's COMMIT has returned: nothing is acknowledged before
 * it is durable.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  private readonly commitGroup: Database.Transaction<(writes: Pending[]) => void>;
  readonly stats: GroupCommitStats = { groups: 0, writes: 0 };

  constructor(private readonly db: Database.Database) {
    this.commitGroup = db.transaction((writes: Pending[]) => {
      for (const write of writes) {
        write.result = this.runInSavepoint(write);
        // A failure SQLite answers by rolling back the whole transaction (disk full, I/O error) takes the group.
        if (!db.inTransaction)
          throw write.result.ok ? new Error('the transaction ended early') : write.result.error;
      }
    });
  }

  /**
   * Runs `work` inside the next group's transaction, in a savepoint of its own; settles after the group commits.
   * `work` must be synchronous and use this database connection only. What it throws rolls back its savepoint and
   * rejects its promise; the group goes on.
   */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve, reject } as Pending);
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  private runInSavepoint(write: Pending): Outcome<unknown> {
    this.db.exec('SAVEPOINT group_write');
    try {
      const value = write.work();
      this.db.exec('RELEASE group_write');
      return { ok: true, value };
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK TO group_write; RELEASE group_write');
      return { ok: false, error };
    }
  }

  private flush(): void {
    this.scheduled = false;
    const writes = this.queue;
    this.queue = [];
    try {
      this.commitGroup.immediate(writes);
    } catch (error) {
      // Nothing of the group was committed: every write fails with the reason.
      for (const write of writes) write.reject(error);
      return;
    }
    this.stats.groups++;
    this.stats.writes += writes.length;
    for (const write of writes) {
      const result = write.result!;
      if (result.ok) write.resolve(result.value);
      else write.reject(result.error);
    }
  }
}
