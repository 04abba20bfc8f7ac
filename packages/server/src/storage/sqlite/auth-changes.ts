import type Database from 'better-sqlite3';
import type { AuthChanges } from '../auth-cache.js';

/** How often the database file is asked whether another process committed to it. */
export const DATA_VERSION_POLL_MS = 100;

/**
 * The server's own writes that change what authentication decides go through the cache's `write`. Another
 * process may write the same file too: the operator's `dataplatform-server credits grant` lifts a suspension
 * while the server runs. SQLite's `data_version` moves exactly when another connection has committed, so it is
 * read every `DATA_VERSION_POLL_MS` (a timer, never on the request path) and a move empties the cache.
 */
export class SqliteAuthChanges implements AuthChanges {
  /** A change from elsewhere is heard within one poll; the poll, not an age, bounds how long an answer holds. */
  readonly maxAgeMs = Number.POSITIVE_INFINITY;
  readonly hearing = true;
  private readonly version: Database.Statement<[], number>;
  private last: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    db: Database.Database,
    private readonly pollMs = DATA_VERSION_POLL_MS,
  ) {
    this.version = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.last = this.version.get()!;
  }

  watch(changed: () => void): void {
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      const now = this.version.get()!;
      if (now === this.last) return;
      this.last = now;
      changed();
    }, this.pollMs);
    // Polling alone must not keep a process alive that has nothing else to do.
    this.timer.unref();
  }

  async announce(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
