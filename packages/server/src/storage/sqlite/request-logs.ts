import type Database from 'better-sqlite3';
import type {
  RequestLogFilter,
  RequestLogRecord,
  RequestLogScope,
  RequestLogStore,
} from '../request-logs.js';
import { relaxed, synchronousOf } from './relaxed.js';

const COLUMNS = `id, at, method, path, status, duration_ms AS durationMs, key_id AS keyId, user_id AS userId,
  cluster_id AS clusterId, ip, user_agent AS userAgent, request_id AS requestId`;
/** Rows per INSERT: one statement's own cost is most of a small row's. */
const ROWS_PER_INSERT = 50;
const PLACEHOLDERS = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
const INSERT =
  'INSERT INTO request_logs (id, at, method, path, status, duration_ms, key_id, user_id, cluster_id, ip, user_agent, request_id) VALUES ';

/** The request log on SQLite. */
export class SqliteRequestLogs implements RequestLogStore {
  private readonly one;
  private readonly many;
  private readonly statements = new Map<string, Database.Statement>();

  private readonly synchronous: string;

  constructor(private readonly db: Database.Database) {
    this.synchronous = synchronousOf(db);
    this.one = db.prepare(INSERT + PLACEHOLDERS);
    this.many = db.prepare(INSERT + Array(ROWS_PER_INSERT).fill(PLACEHOLDERS).join(', '));
  }

  /**
   * Written with `synchronous = NORMAL` (`relaxed`): the log is bookkeeping, and a sync per batch on the event loop
   * would hold every request behind the disk. A power loss can forget the last batches; a crash cannot.
   */
  async append(records: readonly RequestLogRecord[]): Promise<void> {
    const values = (r: RequestLogRecord) => [
      r.id,
      r.at,
      r.method,
      r.path,
      r.status,
      r.durationMs,
      r.keyId,
      r.userId,
      r.clusterId,
      r.ip,
      r.userAgent,
      r.requestId,
    ];
    relaxed(
      this.db,
      this.db.transaction(() => {
        let i = 0;
        for (; i + ROWS_PER_INSERT <= records.length; i += ROWS_PER_INSERT)
          this.many.run(records.slice(i, i + ROWS_PER_INSERT).flatMap(values));
        for (; i < records.length; i++) this.one.run(values(records[i]!));
      }),
      this.synchronous,
    )();
  }

  async list(scope: RequestLogScope, filter: RequestLogFilter) {
    const [where, params] = conditions(scope, filter);
    const rows = this.statement(
      `SELECT ${COLUMNS} FROM request_logs WHERE ${where} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(...params, filter.limit, filter.skip) as RequestLogRecord[];
    const { n } = this.statement(`SELECT COUNT(*) AS n FROM request_logs WHERE ${where}`).get(...params) as {
      n: number;
    };
    return { rows, total: n };
  }

  async find(scope: RequestLogScope, requestId: string): Promise<RequestLogRecord | null> {
    const [where, params] = conditions(scope, { limit: 1, skip: 0 });
    const row = this.statement(
      `SELECT ${COLUMNS} FROM request_logs WHERE request_id = ? AND ${where} ORDER BY at DESC, id DESC LIMIT 1`,
    ).get(requestId, ...params) as RequestLogRecord | undefined;
    return row ?? null;
  }

  async purge(before: number): Promise<number> {
    return this.statement('DELETE FROM request_logs WHERE at < ?').run(before).changes;
  }

  /** Statements by their text: a filter's few shapes are prepared once each. */
  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

function conditions(scope: RequestLogScope, filter: RequestLogFilter): [string, unknown[]] {
  const where: string[] = [];
  const params: unknown[] = [];
  if ('userId' in scope) {
    where.push('(user_id = ? OR cluster_id IN (SELECT cluster_id FROM cluster_members WHERE user_id = ?))');
    params.push(scope.userId, scope.userId);
  } else {
    where.push('cluster_id = ?');
    params.push(scope.clusterId);
  }
  if (filter.status) {
    where.push('status BETWEEN ? AND ?');
    params.push(filter.status.min, filter.status.max);
  }
  if (filter.method !== undefined) {
    where.push('method = ?');
    params.push(filter.method);
  }
  if (filter.pathPrefix !== undefined) {
    where.push('substr(path, 1, ?) = ?');
    params.push(filter.pathPrefix.length, filter.pathPrefix);
  }
  if (filter.keyId !== undefined) {
    where.push('key_id = ?');
    params.push(filter.keyId);
  }
  if (filter.clusterId !== undefined) {
    where.push('cluster_id = ?');
    params.push(filter.clusterId);
  }
  if (filter.from !== undefined) {
    where.push('at >= ?');
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    where.push('at < ?');
    params.push(filter.to);
  }
  return [where.join(' AND '), params];
}
