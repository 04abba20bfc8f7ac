import type { TriggerTarget } from '@dataplatform/contract';
import type Database from 'better-sqlite3';
import type { Page } from '../functions.js';
import type { ClaimedTick, TriggerListFilter, TriggerRow, TriggerRunRow, TriggerStore } from '../triggers.js';

const COLUMNS = `id, cluster_id AS clusterId, name, source, target, active, created_at AS createdAt,
  last_run_at AS lastRunAt, next_run_at AS nextRunAt`;

const RUN_COLUMNS = `id, trigger_id AS triggerId, status, started_at AS startedAt, duration_ms AS durationMs,
  event, error`;

type StoredTrigger = Omit<TriggerRow, 'source' | 'target' | 'active'> & {
  source: string;
  target: string;
  active: number;
};
type StoredRun = Omit<TriggerRunRow, 'event'> & { event: string | null };

const toTrigger = (row: StoredTrigger): TriggerRow => ({
  ...row,
  source: JSON.parse(row.source),
  target: JSON.parse(row.target),
  active: row.active === 1,
});
const toRun = (row: StoredRun): TriggerRunRow => ({
  ...row,
  event: row.event === null ? null : JSON.parse(row.event),
});
const stored = (row: TriggerRow) => ({
  ...row,
  source: JSON.stringify(row.source),
  target: JSON.stringify(row.target),
  active: row.active ? 1 : 0,
});

const VISIBLE = `cluster_id IN (SELECT cluster_id FROM cluster_members
  WHERE user_id = @userId AND (@clusterId IS NULL OR cluster_id = @clusterId))`;

/** Triggers on SQLite. */
export class SqliteTriggers implements TriggerStore {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO triggers (id, cluster_id, name, source, target, active, created_at, last_run_at, next_run_at)
         VALUES (@id, @clusterId, @name, @source, @target, @active, @createdAt, @lastRunAt, @nextRunAt)`,
      ),
      get: db.prepare<[string], StoredTrigger>(`SELECT ${COLUMNS} FROM triggers WHERE id = ?`),
      list: db.prepare<TriggerListFilter, StoredTrigger>(
        `SELECT ${COLUMNS} FROM triggers WHERE ${VISIBLE} ORDER BY created_at, rowid LIMIT @limit OFFSET @skip`,
      ),
      count: db.prepare<Omit<TriggerListFilter, 'limit' | 'skip'>, { n: number }>(
        `SELECT count(*) AS n FROM triggers WHERE ${VISIBLE}`,
      ),
      update: db.prepare<Record<string, unknown>, StoredTrigger>(
        `UPDATE triggers SET name = @name, source = @source, target = @target, active = @active,
           last_run_at = @lastRunAt, next_run_at = @nextRunAt
         WHERE id = @id RETURNING ${COLUMNS}`,
      ),
      delete: db.prepare('DELETE FROM triggers WHERE id = ?'),
      deleteTargeting: db.prepare<[string], StoredTrigger>(
        `DELETE FROM triggers WHERE target = ? RETURNING ${COLUMNS}`,
      ),
      due: db.prepare<[string, number], StoredTrigger>(
        `SELECT t.id, t.cluster_id AS clusterId, t.name, t.source, t.target, t.active, t.created_at AS createdAt,
           t.last_run_at AS lastRunAt, t.next_run_at AS nextRunAt
         FROM triggers t JOIN clusters c ON c.id = t.cluster_id
         WHERE t.next_run_at IS NOT NULL AND t.next_run_at <= ? AND t.active = 1 AND c.status = 'running'
         ORDER BY t.next_run_at LIMIT ?`,
      ),
      anySchedule: db.prepare('SELECT 1 FROM triggers WHERE next_run_at IS NOT NULL LIMIT 1'),
      claim: db.prepare(
        'UPDATE triggers SET next_run_at = @next, last_run_at = @now WHERE id = @id AND next_run_at = @due',
      ),
      insertRun: db.prepare(
        `INSERT INTO trigger_runs (id, trigger_id, status, started_at, duration_ms, event, error)
         VALUES (@id, @triggerId, @status, @startedAt, @durationMs, @event, @error)`,
      ),
      finishRun: db.prepare(
        'UPDATE trigger_runs SET status = @status, duration_ms = @durationMs, error = @error WHERE id = @id',
      ),
      touch: db.prepare('UPDATE triggers SET last_run_at = ? WHERE id = ?'),
      runs: db.prepare<[string, number, number], StoredRun>(
        `SELECT ${RUN_COLUMNS} FROM trigger_runs WHERE trigger_id = ?
         ORDER BY started_at DESC, rowid DESC LIMIT ? OFFSET ?`,
      ),
      countRuns: db.prepare<[string], { n: number }>(
        'SELECT count(*) AS n FROM trigger_runs WHERE trigger_id = ?',
      ),
    };
  }

  async create(trigger: TriggerRow): Promise<void> {
    this.stmt.insert.run(stored(trigger));
  }

  async get(id: string): Promise<TriggerRow | null> {
    const row = this.stmt.get.get(id);
    return row ? toTrigger(row) : null;
  }

  async list(filter: TriggerListFilter): Promise<Page<TriggerRow>> {
    const rows = this.stmt.list.all(filter).map(toTrigger);
    const { n } = this.stmt.count.get({ userId: filter.userId, clusterId: filter.clusterId })!;
    return { rows, total: n };
  }

  async update(trigger: TriggerRow): Promise<TriggerRow | null> {
    const row = this.stmt.update.get(stored(trigger));
    return row ? toTrigger(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    return this.stmt.delete.run(id).changes === 1;
  }

  async deleteTargeting(target: TriggerTarget): Promise<TriggerRow[]> {
    return this.stmt.deleteTargeting.all(JSON.stringify(target)).map(toTrigger);
  }

  async hasSchedules(): Promise<boolean> {
    return this.stmt.anySchedule.get() !== undefined;
  }

  async claimDueTicks(
    now: string,
    next: (trigger: TriggerRow) => string | null,
    limit: number,
  ): Promise<ClaimedTick[]> {
    return this.db
      .transaction(() => {
        const claimed: ClaimedTick[] = [];
        for (const row of this.stmt.due.all(now, limit)) {
          const trigger = toTrigger(row);
          const due = trigger.nextRunAt!;
          const changed = this.stmt.claim.run({ id: trigger.id, due, next: next(trigger), now }).changes;
          if (changed === 1) claimed.push({ trigger, scheduledAt: due });
        }
        return claimed;
      })
      .immediate();
  }

  async recordRun(run: TriggerRunRow): Promise<void> {
    this.db.transaction(() => {
      this.stmt.insertRun.run({ ...run, event: run.event === null ? null : JSON.stringify(run.event) });
      this.stmt.touch.run(run.startedAt, run.triggerId);
    })();
  }

  async finishRun(
    run: Pick<TriggerRunRow, 'id' | 'triggerId' | 'status' | 'durationMs' | 'error'>,
  ): Promise<void> {
    this.stmt.finishRun.run(run);
  }

  async runs(triggerId: string, limit: number, skip: number): Promise<Page<TriggerRunRow>> {
    const rows = this.stmt.runs.all(triggerId, limit, skip).map(toRun);
    const { n } = this.stmt.countRuns.get(triggerId)!;
    return { rows, total: n };
  }
}
