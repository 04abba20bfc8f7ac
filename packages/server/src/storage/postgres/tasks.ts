import type { Sql } from 'postgres';
import type { TaskStore } from '../tasks.js';

/**
 * Claims of periodic tasks on PostgreSQL. The task's row is locked with SKIP LOCKED, so while one instance
 * holds the claim the others pass over it at once instead of waiting, and a due task is claimed exactly once.
 */
export class PostgresTasks implements TaskStore {
  constructor(private readonly sql: Sql) {}

  async claim(name: string, now: string, nextRunAt: string): Promise<boolean> {
    await this
      .sql`INSERT INTO scheduled_tasks (name, next_run_at) VALUES (${name}, ${now}) ON CONFLICT DO NOTHING`;
    const claimed = await this.sql`
      UPDATE scheduled_tasks SET next_run_at = ${nextRunAt}
      WHERE name = (
        SELECT name FROM scheduled_tasks WHERE name = ${name} AND next_run_at <= ${now} FOR UPDATE SKIP LOCKED
      )`;
    return claimed.count === 1;
  }
}
