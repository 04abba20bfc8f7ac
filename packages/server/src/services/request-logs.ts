import type { RequestLogEntry, RequestLogQuery } from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import type { RequestLogFilter, RequestLogRecord, RequestLogScope } from '../storage/request-logs.js';
import type { Storage } from '../storage/types.js';

/** Reads the request log for the dashboard (a user's) and for keys with `logs:read` (a cluster's). */
export class RequestLogService {
  constructor(private readonly storage: Storage) {}

  /** A page of the entries in scope that pass the query's filters, newest first. */
  async list(scope: RequestLogScope, query: RequestLogQuery) {
    const filter = filterOf(query);
    const { rows, total } = await this.storage.requestLogs.list(scope, filter);
    return { data: rows.map(entryOf), total, limit: query.limit, skip: query.skip };
  }

  /** The newest entry with this request id in scope; 404 `not_found` when there is none. */
  async get(scope: RequestLogScope, requestId: string): Promise<RequestLogEntry> {
    const row = await this.storage.requestLogs.find(scope, requestId);
    if (!row) throw new ApiError('not_found', 'No logged request has this id', { requestId });
    return entryOf(row);
  }
}

function filterOf(query: RequestLogQuery): RequestLogFilter {
  const from = query.from === undefined ? undefined : Date.parse(query.from);
  const to = query.to === undefined ? undefined : Date.parse(query.to);
  if (from !== undefined && to !== undefined && from > to)
    throw new ApiError('validation_error', 'Invalid query field "from": it comes after "to"', {
      in: 'query',
      field: 'from',
    });
  let status: RequestLogFilter['status'];
  if (query.status !== undefined) {
    const first = Number(query.status[0]);
    status = query.status.endsWith('xx')
      ? { min: first * 100, max: first * 100 + 99 }
      : { min: Number(query.status), max: Number(query.status) };
  }
  return {
    status,
    method: query.method,
    pathPrefix: query.path,
    keyId: query.keyId,
    clusterId: query.clusterId,
    from,
    to,
    limit: query.limit,
    skip: query.skip,
  };
}

function entryOf(row: RequestLogRecord): RequestLogEntry {
  return {
    _id: row.id,
    t: new Date(row.at).toISOString(),
    method: row.method,
    path: row.path,
    status: row.status,
    durationMs: row.durationMs,
    keyId: row.keyId,
    userId: row.userId,
    ip: row.ip,
    userAgent: row.userAgent,
    requestId: row.requestId,
  };
}
