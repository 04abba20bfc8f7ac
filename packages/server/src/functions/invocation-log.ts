import type { FunctionStore, InvocationRow } from '../storage/functions.js';

/** How long a recorded invocation may wait for others to join its write, and how many one write takes at most. */
export const INVOCATION_BATCH = { waitMs: 10, maxRows: 500 };

/**
 * The invocation history's writer: runs are recorded off their own path, several in one write. An invocation is a
 * log line of the run, not a write the caller was told is durable, so a run answers without waiting for it; what
 * reads the history here (the invocations route, the failing-streak check) waits for the rows added before it. A
 * crash of the process can therefore forget the runs of its last few milliseconds, as a power loss already could.
 */
export class InvocationLog {
  private pending: InvocationRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The write in progress, if any: writes follow one another, so rows land in the order they were added. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Pick<FunctionStore, 'recordInvocations'>,
    private readonly onError: (error: unknown) => void,
    private readonly batch = INVOCATION_BATCH,
  ) {}

  /** Queues `row` for the next write. */
  add(row: InvocationRow): void {
    this.pending.push(row);
    if (this.pending.length >= this.batch.maxRows) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.batch.waitMs);
  }

  /** Resolves once every row added so far is written (or, when its write failed, reported to `onError`). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return this.writing;
    const rows = this.pending;
    this.pending = [];
    this.writing = this.writing.then(() => this.write(rows));
    return this.writing;
  }

  /** One write; when it fails (a function deleted as its rows were written, say), each row alone. */
  private async write(rows: InvocationRow[]): Promise<void> {
    try {
      await this.store.recordInvocations(rows);
    } catch (error) {
      if (rows.length === 1) return this.onError(error);
      for (const row of rows) await this.store.recordInvocations([row]).catch(this.onError);
    }
  }
}
