import type { PendingQuery, Row as PgRow, Sql } from 'postgres';

type Fragment = PendingQuery<PgRow[]>;

import type {
  RequestLogFilter,
  RequestLogRecord,
  RequestLogScope,
  RequestLogStore,
} from '../request-logs.js';

interface Row extends Omit<RequestLogRecord, 'at'> {
  at: string;
}

/** The request log on PostgreSQL. */
export class PostgresRequestLogs implements RequestLogStore {
  constructor(private readonly sql: Sql) {}

  async append(records: readonly RequestLogRecord[]): Promise<void> {
    const rows = records.map((r) => ({
      id: r.id,
      at: r.at,
      method: r.method,
      path: r.path,
      status: r.status,
      duration_ms: r.durationMs,
      key_id: r.keyId,
      user_id: r.userId,
      cluster_id: r.clusterId,
      ip: r.ip,
      user_agent: r.userAgent,
      request_id: r.requestId,
    }));
    // One statement per thousand rows, well under the protocol's 65 535 parameters.
    for (let i = 0; i < rows.length; i += 1000)
      await this.sql`INSERT INTO request_logs ${this.sql(rows.slice(i, i + 1000))}`;
  }

  async list(scope: RequestLogScope, filter: RequestLogFilter) {
    const where = this.conditions(scope, filter);
    const [rows, [count]] = await Promise.all([
      this.sql<Row[]>`SELECT ${this.columns()} FROM request_logs WHERE ${where}
        ORDER BY at DESC, id DESC LIMIT ${filter.limit} OFFSET ${filter.skip}`,
      this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM request_logs WHERE ${where}`,
    ]);
    return { rows: rows.map(record), total: count!.n };
  }

  async find(scope: RequestLogScope, requestId: string): Promise<RequestLogRecord | null> {
    const where = this.conditions(scope, { limit: 1, skip: 0 });
    const [row] = await this.sql<Row[]>`SELECT ${this.columns()} FROM request_logs
      WHERE request_id = ${requestId} AND ${where} ORDER BY at DESC, id DESC LIMIT 1`;
    return row ? record(row) : null;
  }

  async purge(before: number): Promise<number> {
    return (await this.sql`DELETE FROM request_logs WHERE at < ${before}`).count;
  }

  private columns(): Fragment {
    return this.sql`id, at, method, path, status, duration_ms AS "durationMs", key_id AS "keyId",
      user_id AS "userId", cluster_id AS "clusterId", ip, user_agent AS "userAgent", request_id AS "requestId"`;
  }

  private conditions(scope: RequestLogScope, filter: RequestLogFilter): Fragment {
    const sql = this.sql;
    const parts: Fragment[] = [
      'userId' in scope
        ? sql`(user_id = ${scope.userId} OR cluster_id IN (SELECT cluster_id FROM cluster_members WHERE user_id = ${scope.userId}))`
        : sql`cluster_id = ${scope.clusterId}`,
    ];
    if (filter.status) parts.push(sql`status BETWEEN ${filter.status.min} AND ${filter.status.max}`);
    if (filter.method !== undefined) parts.push(sql`method = ${filter.method}`);
    if (filter.pathPrefix !== undefined)
      parts.push(sql`left(path, ${filter.pathPrefix.length}) = ${filter.pathPrefix}`);
    if (filter.keyId !== undefined) parts.push(sql`key_id = ${filter.keyId}`);
    if (filter.clusterId !== undefined) parts.push(sql`cluster_id = ${filter.clusterId}`);
    if (filter.from !== undefined) parts.push(sql`at >= ${filter.from}`);
    if (filter.to !== undefined) parts.push(sql`at < ${filter.to}`);
    return parts.reduce((all, part) => sql`${all} AND ${part}`);
  }
}

/** BIGINT arrives as text: times here stay well inside a double's exact range. */
function record(row: Row): RequestLogRecord {
  return { ...row, at: Number(row.at) };
}
