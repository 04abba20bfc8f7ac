import type { Sql } from 'postgres';
import type {
  FunctionDeployment,
  FunctionListFilter,
  FunctionRow,
  FunctionStore,
  InvocationRow,
  NewFunction,
  Page,
} from '../functions.js';

/** Functions on PostgreSQL. */
export class PostgresFunctions implements FunctionStore {
  constructor(private readonly sql: Sql) {}

  private columns() {
    return this.sql`id, cluster_id AS "clusterId", name, version, code, env, timeout_ms AS "timeoutMs",
      memory_mb AS "memoryMb", created_at AS "createdAt", updated_at AS "updatedAt"`;
  }

  async create(fn: NewFunction): Promise<'created' | 'name_taken'> {
    try {
      await this.sql`
        INSERT INTO functions (id, cluster_id, name, version, code, env, timeout_ms, memory_mb, created_at, updated_at)
        VALUES (${fn.id}, ${fn.clusterId}, ${fn.name}, 1, ${fn.code}, ${this.sql.json(fn.env)}, ${fn.timeoutMs},
                ${fn.memoryMb}, ${fn.createdAt}, ${fn.updatedAt})`;
      return 'created';
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return 'name_taken';
      throw error;
    }
  }

  async get(id: string): Promise<FunctionRow | null> {
    const [row] = await this.sql<FunctionRow[]>`SELECT ${this.columns()} FROM functions WHERE id = ${id}`;
    return row ?? null;
  }

  async byName(clusterId: string, name: string): Promise<FunctionRow | null> {
    const [row] = await this.sql<FunctionRow[]>`
      SELECT ${this.columns()} FROM functions WHERE cluster_id = ${clusterId} AND name = ${name}`;
    return row ?? null;
  }

  async list({ userId, clusterId, limit, skip }: FunctionListFilter): Promise<Page<FunctionRow>> {
    const visible = this.sql`cluster_id IN (SELECT cluster_id FROM cluster_members
      WHERE user_id = ${userId} AND (${clusterId}::text IS NULL OR cluster_id = ${clusterId}))`;
    const rows = await this.sql<FunctionRow[]>`
      SELECT ${this.columns()} FROM functions WHERE ${visible} ORDER BY created_at, seq LIMIT ${limit} OFFSET ${skip}`;
    const [count] = await this.sql<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM functions WHERE ${visible}`;
    return { rows: [...rows], total: count!.n };
  }

  async deploy(id: string, d: FunctionDeployment): Promise<FunctionRow | null> {
    const [row] = await this.sql<FunctionRow[]>`
      UPDATE functions SET version = version + 1, code = ${d.code}, env = ${this.sql.json(d.env)},
        timeout_ms = ${d.timeoutMs}, memory_mb = ${d.memoryMb}, updated_at = ${d.updatedAt}
      WHERE id = ${id} RETURNING ${this.columns()}`;
    return row ?? null;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.sql`DELETE FROM functions WHERE id = ${id}`;
    return result.count === 1;
  }

  /**
   * Invocations are history, not data: their commit does not wait for the WAL flush (`synchronous_commit = off`), so
   * runs are not held up one flush each. A crash of PostgreSQL itself can forget the last of them, never half of one.
   * The rows go as one JSON parameter, so a batch is one statement whatever its size.
   */
  async recordInvocations(invocations: InvocationRow[]): Promise<void> {
    if (invocations.length === 0) return;
    const rows = invocations.map((i) => ({
      id: i.id,
      function_id: i.functionId,
      version: i.version,
      status: i.status,
      started_by: i.trigger,
      duration_ms: i.durationMs,
      started_at: i.startedAt,
      logs: i.logs,
      error: i.error,
    }));
    await this.sql.begin(async (tx) => {
      await tx`SET LOCAL synchronous_commit = off`;
      await tx`
        INSERT INTO function_invocations (id, function_id, version, status, started_by, duration_ms, started_at, logs, error)
        SELECT r.id, r.function_id, r.version, r.status, r.started_by, r.duration_ms, r.started_at, r.logs, r.error
        FROM jsonb_to_recordset(${tx.json(rows)})
          AS r(id text, function_id text, version int, status text, started_by text, duration_ms float8,
               started_at text, logs jsonb, error jsonb)
        WHERE EXISTS (SELECT 1 FROM functions WHERE functions.id = r.function_id)`;
    });
  }

  async invocations(functionId: string, limit: number, skip: number): Promise<Page<InvocationRow>> {
    const rows = await this.sql<InvocationRow[]>`
      SELECT id, function_id AS "functionId", version, status, started_by AS "trigger", duration_ms AS "durationMs",
        started_at AS "startedAt", logs, error
      FROM function_invocations WHERE function_id = ${functionId}
      ORDER BY started_at DESC, seq DESC LIMIT ${limit} OFFSET ${skip}`;
    const [count] = await this.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM function_invocations WHERE function_id = ${functionId}`;
    return { rows: [...rows], total: count!.n };
  }
}
