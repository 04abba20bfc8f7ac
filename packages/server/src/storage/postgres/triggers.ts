import type { TriggerTarget } from '@dataplatform/contract';
import type { Sql } from 'postgres';
import type { Page } from '../functions.js';
import type { ClaimedTick, TriggerListFilter, TriggerRow, TriggerRunRow, TriggerStore } from '../triggers.js';

/** Triggers on PostgreSQL. */
export class PostgresTriggers implements TriggerStore {
  constructor(private readonly sql: Sql) {}

  private columns(table = 'triggers') {
    const t = this.sql(table);
    return this.sql`${t}.id, ${t}.cluster_id AS "clusterId", ${t}.name, ${t}.source, ${t}.target, ${t}.active,
      ${t}.created_at AS "createdAt", ${t}.last_run_at AS "lastRunAt", ${t}.next_run_at AS "nextRunAt"`;
  }

  async create(t: TriggerRow): Promise<void> {
    await this.sql`
      INSERT INTO triggers (id, cluster_id, name, source, target, active, created_at, last_run_at, next_run_at)
      VALUES (${t.id}, ${t.clusterId}, ${t.name}, ${this.sql.json(t.source)}, ${this.sql.json(t.target)},
              ${t.active}, ${t.createdAt}, ${t.lastRunAt}, ${t.nextRunAt})`;
  }

  async get(id: string): Promise<TriggerRow | null> {
    const [row] = await this.sql<TriggerRow[]>`SELECT ${this.columns()} FROM triggers WHERE id = ${id}`;
    return row ?? null;
  }

  async list({ userId, clusterId, limit, skip }: TriggerListFilter): Promise<Page<TriggerRow>> {
    const visible = this.sql`cluster_id IN (SELECT cluster_id FROM cluster_members
      WHERE user_id = ${userId} AND (${clusterId}::text IS NULL OR cluster_id = ${clusterId}))`;
    const rows = await this.sql<TriggerRow[]>`
      SELECT ${this.columns()} FROM triggers WHERE ${visible} ORDER BY created_at, seq LIMIT ${limit} OFFSET ${skip}`;
    const [count] = await this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM triggers WHERE ${visible}`;
    return { rows: [...rows], total: count!.n };
  }

  async update(t: TriggerRow): Promise<TriggerRow | null> {
    const [row] = await this.sql<TriggerRow[]>`
      UPDATE triggers SET name = ${t.name}, source = ${this.sql.json(t.source)}, target = ${this.sql.json(t.target)},
        active = ${t.active}, last_run_at = ${t.lastRunAt}, next_run_at = ${t.nextRunAt}
      WHERE id = ${t.id} RETURNING ${this.columns()}`;
    return row ?? null;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.sql`DELETE FROM triggers WHERE id = ${id}`;
    return result.count === 1;
  }

  async deleteTargeting(target: TriggerTarget): Promise<TriggerRow[]> {
    const rows = await this.sql<TriggerRow[]>`
      DELETE FROM triggers WHERE target = ${this.sql.json(target)} RETURNING ${this.columns()}`;
    return [...rows];
  }

  async hasSchedules(): Promise<boolean> {
    const rows = await this.sql`SELECT 1 FROM triggers WHERE next_run_at IS NOT NULL LIMIT 1`;
    return rows.length > 0;
  }

  async claimDueTicks(
    now: string,
    next: (trigger: TriggerRow) => string | null,
    limit: number,
  ): Promise<ClaimedTick[]> {
    // SKIP LOCKED: instances polling together split the due ticks instead of waiting for each other; the
    // compare-and-set on next_run_at makes a tick that one instance already moved on unclaimable by another.
    return this.sql.begin(async (tx) => {
      const due = await tx<TriggerRow[]>`
        SELECT ${this.columns('t')} FROM triggers t JOIN clusters c ON c.id = t.cluster_id
        WHERE t.next_run_at IS NOT NULL AND t.next_run_at <= ${now} AND t.active AND c.status = 'running'
        ORDER BY t.next_run_at LIMIT ${limit}
        FOR UPDATE OF t SKIP LOCKED`;
      const claimed: ClaimedTick[] = [];
      for (const trigger of due) {
        const result = await tx`
          UPDATE triggers SET next_run_at = ${next(trigger)}, last_run_at = ${now}
          WHERE id = ${trigger.id} AND next_run_at = ${trigger.nextRunAt}`;
        if (result.count === 1) claimed.push({ trigger, scheduledAt: trigger.nextRunAt! });
      }
      return claimed;
    });
  }

  async recordRun(run: TriggerRunRow): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`
        INSERT INTO trigger_runs (id, trigger_id, status, started_at, duration_ms, event, error)
        VALUES (${run.id}, ${run.triggerId}, ${run.status}, ${run.startedAt}, ${run.durationMs},
                ${run.event === null ? null : tx.json(run.event as never)}, ${run.error})`;
      await tx`UPDATE triggers SET last_run_at = ${run.startedAt} WHERE id = ${run.triggerId}`;
    });
  }

  async finishRun(
    run: Pick<TriggerRunRow, 'id' | 'triggerId' | 'status' | 'durationMs' | 'error'>,
  ): Promise<void> {
    await this.sql`
      UPDATE trigger_runs SET status = ${run.status}, duration_ms = ${run.durationMs}, error = ${run.error}
      WHERE id = ${run.id}`;
  }

  async runs(triggerId: string, limit: number, skip: number): Promise<Page<TriggerRunRow>> {
    const rows = await this.sql<TriggerRunRow[]>`
      SELECT id, trigger_id AS "triggerId", status, started_at AS "startedAt", duration_ms AS "durationMs", event, error
      FROM trigger_runs WHERE trigger_id = ${triggerId}
      ORDER BY started_at DESC, seq DESC LIMIT ${limit} OFFSET ${skip}`;
    const [count] = await this.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM trigger_runs WHERE trigger_id = ${triggerId}`;
    return { rows: [...rows], total: count!.n };
  }
}
