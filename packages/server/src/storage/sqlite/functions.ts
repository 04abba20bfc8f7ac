import type Database from 'better-sqlite3';
import type {
  FunctionDeployment,
  FunctionListFilter,
  FunctionRow,
  FunctionStore,
  InvocationRow,
  NewFunction,
  Page,
} from '../functions.js';
import { relaxed, synchronousOf } from './relaxed.js';

const COLUMNS = `id, cluster_id AS clusterId, name, version, code, env, timeout_ms AS timeoutMs,
  memory_mb AS memoryMb, created_at AS createdAt, updated_at AS updatedAt`;

const INVOCATION_COLUMNS = `id, function_id AS functionId, version, status, started_by AS "trigger",
  duration_ms AS durationMs, started_at AS startedAt, logs, error`;

type StoredFunction = Omit<FunctionRow, 'env'> & { env: string };
type StoredInvocation = Omit<InvocationRow, 'logs' | 'error'> & { logs: string; error: string | null };

const toFunction = (row: StoredFunction): FunctionRow => ({ ...row, env: JSON.parse(row.env) });
const toInvocation = (row: StoredInvocation): InvocationRow => ({
  ...row,
  logs: JSON.parse(row.logs),
  error: row.error === null ? null : JSON.parse(row.error),
});

/** The clusters a list covers: the user's, or the one named when the user is a member of it. */
const VISIBLE = `cluster_id IN (SELECT cluster_id FROM cluster_members
  WHERE user_id = @userId AND (@clusterId IS NULL OR cluster_id = @clusterId))`;

/** Functions on SQLite. */
export class SqliteFunctions implements FunctionStore {
  private readonly stmt;
  /** Invocations are history, not data: recorded without waiting for their fsync (see relaxed.ts). */
  private readonly recordTx;

  constructor(db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO functions (id, cluster_id, name, version, code, env, timeout_ms, memory_mb, created_at, updated_at)
         VALUES (@id, @clusterId, @name, 1, @code, @env, @timeoutMs, @memoryMb, @createdAt, @updatedAt)`,
      ),
      get: db.prepare<[string], StoredFunction>(`SELECT ${COLUMNS} FROM functions WHERE id = ?`),
      byName: db.prepare<[string, string], StoredFunction>(
        `SELECT ${COLUMNS} FROM functions WHERE cluster_id = ? AND name = ?`,
      ),
      list: db.prepare<FunctionListFilter, StoredFunction>(
        `SELECT ${COLUMNS} FROM functions WHERE ${VISIBLE} ORDER BY created_at, rowid LIMIT @limit OFFSET @skip`,
      ),
      count: db.prepare<Omit<FunctionListFilter, 'limit' | 'skip'>, { n: number }>(
        `SELECT count(*) AS n FROM functions WHERE ${VISIBLE}`,
      ),
      deploy: db.prepare<Record<string, unknown>, StoredFunction>(
        `UPDATE functions SET version = version + 1, code = @code, env = @env, timeout_ms = @timeoutMs,
           memory_mb = @memoryMb, updated_at = @updatedAt
         WHERE id = @id RETURNING ${COLUMNS}`,
      ),
      delete: db.prepare('DELETE FROM functions WHERE id = ?'),
      record: db.prepare(
        `INSERT INTO function_invocations (id, function_id, version, status, started_by, duration_ms, started_at, logs, error)
         SELECT @id, @functionId, @version, @status, @trigger, @durationMs, @startedAt, @logs, @error
         WHERE EXISTS (SELECT 1 FROM functions WHERE id = @functionId)`,
      ),
      invocations: db.prepare<[string, number, number], StoredInvocation>(
        `SELECT ${INVOCATION_COLUMNS} FROM function_invocations WHERE function_id = ?
         ORDER BY started_at DESC, rowid DESC LIMIT ? OFFSET ?`,
      ),
      countInvocations: db.prepare<[string], { n: number }>(
        'SELECT count(*) AS n FROM function_invocations WHERE function_id = ?',
      ),
    };
    const record = this.stmt.record;
    this.recordTx = relaxed(
      db,
      db.transaction((rows: InvocationRow[]) => {
        for (const row of rows)
          record.run({
            ...row,
            logs: JSON.stringify(row.logs),
            error: row.error === null ? null : JSON.stringify(row.error),
          });
      }),
      synchronousOf(db),
    );
  }

  async create(fn: NewFunction): Promise<'created' | 'name_taken'> {
    try {
      this.stmt.insert.run({ ...fn, env: JSON.stringify(fn.env) });
      return 'created';
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return 'name_taken';
      throw error;
    }
  }

  async get(id: string): Promise<FunctionRow | null> {
    const row = this.stmt.get.get(id);
    return row ? toFunction(row) : null;
  }

  async byName(clusterId: string, name: string): Promise<FunctionRow | null> {
    const row = this.stmt.byName.get(clusterId, name);
    return row ? toFunction(row) : null;
  }

  async list(filter: FunctionListFilter): Promise<Page<FunctionRow>> {
    const rows = this.stmt.list.all(filter).map(toFunction);
    const { n } = this.stmt.count.get({ userId: filter.userId, clusterId: filter.clusterId })!;
    return { rows, total: n };
  }

  async deploy(id: string, deployment: FunctionDeployment): Promise<FunctionRow | null> {
    const row = this.stmt.deploy.get({ ...deployment, id, env: JSON.stringify(deployment.env) });
    return row ? toFunction(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    return this.stmt.delete.run(id).changes === 1;
  }

  async recordInvocations(invocations: InvocationRow[]): Promise<void> {
    this.recordTx(invocations);
  }

  async invocations(functionId: string, limit: number, skip: number): Promise<Page<InvocationRow>> {
    const rows = this.stmt.invocations.all(functionId, limit, skip).map(toInvocation);
    const { n } = this.stmt.countInvocations.get(functionId)!;
    return { rows, total: n };
  }
}
