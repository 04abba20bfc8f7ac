import { closeSync, fdatasync, openSync } from 'node:fs';
import type Database from 'better-sqlite3';

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A write waiting for its group: the work to run in its savepoint and how to tell its caller. */
interface Pending<T = unknown> {
  work: () => T;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
  result?: Outcome<T>;
}

/** What the group commits have done since the database opened, for metrics and tests. */
export interface GroupCommitStats {
  /** Transactions committed. */
  groups: number;
  /** Writes acknowledged through them. */
  writes: number;
  /** Syncs of the WAL file to disk made for them (each covers every group committed before it started). */
  syncs: number;
}

/** How a group is made durable. */
export interface GroupCommitOptions {
  /**
   * The WAL file to sync after each commit, off the event loop, before the group's writes are acknowledged; the
   * connection must run with `synchronous = FULL`, which is what this replaces for these commits. Absent (an
   * in-memory database, or `synchronous = NORMAL` by choice): a write is acknowledged once its COMMIT returns.
   */
  walFile?: string;
}

/**
 * Group commit for SQLite: writes that arrive together share one transaction, and one sync to disk makes many
 * transactions durable.
 *
 * better-sqlite3 is synchronous, so a sync inside COMMIT (`synchronous = FULL`) would hold the event loop for the
 * whole time the disk takes. Instead a group commits with `synchronous = NORMAL` (its WAL frames reach the
 * operating system, not yet the disk) and the WAL file is then synced with fdatasync on libuv's thread pool, which
 * is the very sync FULL would have made inside COMMIT; its writes are acknowledged when that sync returns. While it
 * runs, the event loop reads the next requests and commits the next group, and the next sync covers every group
 * committed meanwhile. A crash or power loss can lose only writes not yet acknowledged: SQLite's recovery keeps the
 * WAL frames that reached the disk whole and drops the rest.
 *
 * Requests read in one poll phase enqueue their writes here; the group runs at `setImmediate`, right after that
 * phase, so a lone write waits for nothing. Each write runs in its own savepoint: one that fails (a taken id, a
 * lost idempotency race, an aborted batch) rolls back alone and its neighbours commit.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  /** Writes committed and waiting for the next sync of the WAL file. */
  private unsynced: Pending[] = [];
  /** Writes whose sync runs now; null when none runs. */
  private syncing: Pending[] | null = null;
  private readonly walFd: number | undefined;
  private readonly idle = new Set<() => void>();
  private readonly commitGroup: Database.Transaction<(writes: Pending[]) => void>;
  /** Prepared once: a group runs these for every write, and preparing costs more than running them. */
  private readonly stmt;
  readonly stats: GroupCommitStats = { groups: 0, writes: 0, syncs: 0 };

  constructor(
    private readonly db: Database.Database,
    options: GroupCommitOptions = {},
  ) {
    // Linux syncs a file's data through any descriptor of it, a read-only one included.
    this.walFd = options.walFile === undefined ? undefined : openSync(options.walFile, 'r');
    this.stmt = {
      savepoint: db.prepare('SAVEPOINT group_write'),
      release: db.prepare('RELEASE group_write'),
      rollback: db.prepare('ROLLBACK TO group_write'),
      noSync: db.prepare('PRAGMA synchronous = NORMAL'),
      fullSync: db.prepare('PRAGMA synchronous = FULL'),
    };
    this.commitGroup = db.transaction((writes: Pending[]) => {
      for (const write of writes) {
        const result = this.runInSavepoint(write);
        write.result = result;
        // A failure SQLite answers by rolling back the whole transaction (disk full, I/O error) takes the group.
        if (!db.inTransaction) throw result.ok ? new Error('the transaction ended early') : result.error;
      }
    });
  }

  /**
   * Runs `work` inside the next group's transaction, in a savepoint of its own; settles once the group is durable.
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

  /**
   * Resolves once everything committed so far is durable: at once unless a group awaits its sync. For reads that
   * acknowledge a write again (an idempotent replay), which must not hand out what a power loss could take back.
   */
  durable(): Promise<void> {
    const waiting = this.unsynced.length > 0 ? this.unsynced : this.syncing;
    if (!waiting) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      waiting.push({
        work: () => undefined,
        resolve,
        reject,
        result: { ok: true, value: undefined },
      } as Pending);
    });
  }

  /** Resolves once every write handed to `run` has settled; then closes the WAL file's descriptor. */
  async close(): Promise<void> {
    while (this.scheduled || this.syncing || this.unsynced.length > 0) {
      await new Promise<void>((resolve) => this.idle.add(resolve));
    }
    if (this.walFd !== undefined) closeSync(this.walFd);
  }

  private runInSavepoint(write: Pending): Outcome<unknown> {
    this.stmt.savepoint.run();
    try {
      const value = write.work();
      this.stmt.release.run();
      return { ok: true, value };
    } catch (error) {
      if (this.db.inTransaction) {
        this.stmt.rollback.run();
        this.stmt.release.run();
      }
      return { ok: false, error };
    }
  }

  private flush(): void {
    this.scheduled = false;
    const writes = this.queue;
    this.queue = [];
    try {
      this.commit(writes);
    } catch (error) {
      // Nothing of the group was committed: every write fails with the reason.
      for (const write of writes) write.reject(error);
      this.settled();
      return;
    }
    this.stats.groups++;
    this.stats.writes += writes.length;
    if (this.walFd === undefined) {
      settle(writes);
      this.settled();
      return;
    }
    for (const write of writes) this.unsynced.push(write);
    this.sync();
  }

  /** Commits the group; with a WAL file to sync, without a sync inside COMMIT (see the class comment). */
  private commit(writes: Pending[]): void {
    if (this.walFd === undefined) return this.commitGroup.immediate(writes);
    this.stmt.noSync.run();
    try {
      this.commitGroup.immediate(writes);
    } finally {
      this.stmt.fullSync.run();
    }
  }

  /** Syncs the WAL file for every write committed so far, unless a sync runs; the next starts when it ends. */
  private sync(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    const writes = this.unsynced;
    this.syncing = writes;
    this.unsynced = [];
    fdatasync(this.walFd!, (error) => {
      this.syncing = null;
      this.stats.syncs++;
      if (error) for (const write of writes) write.reject(error);
      else settle(writes);
      this.sync();
      this.settled();
    });
  }

  private settled(): void {
    if (this.scheduled || this.syncing || this.unsynced.length > 0) return;
    for (const resolve of this.idle) resolve();
    this.idle.clear();
  }
}

/** Tells each write of a durable group its own outcome. */
function settle(writes: readonly Pending[]): void {
  for (const write of writes) {
    const result = write.result!;
    if (result.ok) write.resolve(result.value);
    else write.reject(result.error);
  }
}
