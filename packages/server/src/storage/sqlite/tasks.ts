import type Database from 'better-sqlite3';
import type { TaskStore } from '../tasks.js';

/** Claims of periodic tasks on SQLite (one writer at a time, so a conditional update is a claim). */
export class SqliteTasks implements TaskStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      seed: db.prepare(
        'INSERT INTO scheduled_tasks (name, next_run_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
      ),
      claim: db.prepare('UPDATE scheduled_tasks SET next_run_at = ? WHERE name = ? AND next_run_at <= ?'),
    };
  }

  async claim(name: string, now: string, nextRunAt: string): Promise<boolean> {
    this.stmt.seed.run(name, now);
    return this.stmt.claim.run(nextRunAt, name, now).changes === 1;
  }
}
