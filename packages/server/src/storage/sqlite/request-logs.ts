import type Database from 'better-sqlite3';
import type {
  RequestLogFilter,
  RequestLogRecord,
  RequestLogScope,
  RequestLogStore,
} from '../request-logs.js';
import { relaxed, synchronousOf } from './relaxed.js';

/** One entry as stored in a batch's JSON array: the record's fields in this order. */
type Packed = [
  string,
  number,
  string,
  string,
  number,
  number,
  string | null,
  string | null,
  string | null,
  string,
  string | null,
  string,
];

/**
 * The request log on SQLite, in batches: one row per cluster (or user, for requests outside clusters) and write,
 * its entries a JSON array. A write then costs one row however many requests it holds; a list reads the batches of
 * its scope that overlap its time range and filters their entries. Narrow long logs with `from` and `to`.
 */
export class SqliteRequestLogs implements RequestLogStore {
  private readonly stmt;
  private readonly write;

  constructor(db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO request_log_batches (cluster_id, user_id, first_at, last_at, entries)
         VALUES (@clusterId, @userId, @firstAt, @lastAt, @entries)`,
      ),
      byUser: db.prepare<[string, string, number, number], { entries: string }>(`
        SELECT entries FROM request_log_batches
        WHERE (user_id = ? OR cluster_id IN (SELECT cluster_id FROM cluster_members WHERE user_id = ?))
          AND last_at >= ? AND first_at < ? ORDER BY last_at DESC, id DESC`),
      byCluster: db.prepare<[string, number, number], { entries: string }>(`
        SELECT entries FROM request_log_batches WHERE cluster_id = ? AND last_at >= ? AND first_at < ?
        ORDER BY last_at DESC, id DESC`),
      purge: db.prepare('DELETE FROM request_log_batches WHERE last_at < ?'),
    };
    // Bookkeeping: not synced at each commit (`relaxed`); a power loss can forget the last batches.
    this.write = relaxed(
      db,
      db.transaction((records: readonly RequestLogRecord[]) => {
        const groups = new Map<string, RequestLogRecord[]>();
        for (const r of records) {
          const scope = r.clusterId !== null ? `c ${r.clusterId}` : `u ${r.userId ?? ''}`;
          const group = groups.get(scope);
          if (group) group.push(r);
          else groups.set(scope, [r]);
        }
        for (const group of groups.values()) {
          const first = group[0]!;
          this.stmt.insert.run({
            clusterId: first.clusterId,
            userId: first.clusterId === null ? first.userId : null,
            firstAt: Math.min(...group.map((r) => r.at)),
            lastAt: Math.max(...group.map((r) => r.at)),
            entries: JSON.stringify(group.map(pack)),
          });
        }
      }),
      synchronousOf(db),
    );
  }

  async append(records: readonly RequestLogRecord[]): Promise<void> {
    if (records.length > 0) this.write(records);
  }

  async list(scope: RequestLogScope, filter: RequestLogFilter) {
    const matching = this.entries(scope, filter.from, filter.to).filter((r) => passes(r, filter));
    matching.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return { rows: matching.slice(filter.skip, filter.skip + filter.limit), total: matching.length };
  }

  async find(scope: RequestLogScope, requestId: string): Promise<RequestLogRecord | null> {
    let found: RequestLogRecord | null = null;
    for (const r of this.entries(scope, undefined, undefined))
      if (r.requestId === requestId && (!found || r.at > found.at || (r.at === found.at && r.id > found.id)))
        found = r;
    return found;
  }

  async purge(before: number): Promise<number> {
    return this.stmt.purge.run(before).changes;
  }

  private entries(
    scope: RequestLogScope,
    from: number | undefined,
    to: number | undefined,
  ): RequestLogRecord[] {
    const low = from ?? 0;
    const high = to ?? Number.MAX_SAFE_INTEGER;
    const rows =
      'userId' in scope
        ? this.stmt.byUser.all(scope.userId, scope.userId, low, high)
        : this.stmt.byCluster.all(scope.clusterId, low, high);
    return rows.flatMap((row) => (JSON.parse(row.entries) as Packed[]).map(unpack));
  }
}

function passes(r: RequestLogRecord, f: RequestLogFilter): boolean {
  return (
    (f.status === undefined || (r.status >= f.status.min && r.status <= f.status.max)) &&
    (f.method === undefined || r.method === f.method) &&
    (f.pathPrefix === undefined || r.path.startsWith(f.pathPrefix)) &&
    (f.keyId === undefined || r.keyId === f.keyId) &&
    (f.clusterId === undefined || r.clusterId === f.clusterId) &&
    (f.from === undefined || r.at >= f.from) &&
    (f.to === undefined || r.at < f.to)
  );
}

function pack(r: RequestLogRecord): Packed {
  return [
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
}

function unpack(p: Packed): RequestLogRecord {
  const [id, at, method, path, status, durationMs, keyId, userId, clusterId, ip, userAgent, requestId] = p;
  return { id, at, method, path, status, durationMs, keyId, userId, clusterId, ip, userAgent, requestId };
}
