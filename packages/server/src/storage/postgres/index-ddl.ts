import type { Sql } from 'postgres';

/** 40P01, deadlock_detected. */
const DEADLOCK = '40P01';
const ATTEMPTS = 5;

/**
 * The index work on the documents table (CREATE and DROP INDEX CONCURRENTLY, ANALYZE), one statement at a time on
 * this instance. Each takes a lock on the table that the others wait for, and a concurrent build also waits for
 * every transaction older than it, their waiting ones included: two at once deadlock, and PostgreSQL ends one.
 * They would wait for each other anyway, so queueing them costs nothing; another instance's can still deadlock
 * with ours, so a statement that PostgreSQL ended as a deadlock is tried again.
 */
export class IndexDdl {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly sql: Sql) {}

  /** Runs `work` once the index work queued before it has ended; `work` must not queue more itself. */
  queued<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs `statement`, again after a deadlock (`cleanUp` first: a concurrent build ended leaves an invalid index). */
  async retried(statement: string, cleanUp?: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.sql.unsafe(statement);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== DEADLOCK || attempt >= ATTEMPTS) throw error;
        await cleanUp?.();
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }

  /** Drops an engine index, queued and retried. */
  drop(engineName: string): Promise<void> {
    return this.queued(() => this.retried(`DROP INDEX CONCURRENTLY IF EXISTS "${engineName}"`));
  }
}

const perConnection = new WeakMap<Sql, IndexDdl>();

/** The one queue of index work of the storage that owns `sql`. */
export function indexDdlOf(sql: Sql): IndexDdl {
  let ddl = perConnection.get(sql);
  if (!ddl) {
    ddl = new IndexDdl(sql);
    perConnection.set(sql, ddl);
  }
  return ddl;
}
