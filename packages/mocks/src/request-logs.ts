import { type RequestLogEntry, type RequestLogQuery, redactRequestTarget } from '@dataplatform/contract';
import { ApiError } from './answers.js';

/** One request the mocks answered, with the user it belongs to (a session's user or a managed key's owner). */
interface LoggedRequest extends RequestLogEntry {
  ownerId: string | null;
  at: number;
}

/** The request log of a mock instance: every answered request, with the server's filters and redaction. */
export class RequestLogModel {
  #entries: LoggedRequest[] = [];
  #next = 0;

  clear(): void {
    this.#entries = [];
  }

  /** Keeps one answered request. */
  record(entry: {
    method: string;
    url: URL;
    status: number;
    durationMs: number;
    keyId: string | null;
    userId: string | null;
    ownerId: string | null;
    ip: string;
    userAgent: string | null;
    requestId: string;
  }): void {
    const at = Date.now();
    this.#entries.push({
      _id: `rl_mock_${String(++this.#next).padStart(8, '0')}`,
      t: new Date(at).toISOString(),
      at,
      method: entry.method,
      path: redactRequestTarget(entry.url.pathname + entry.url.search),
      status: entry.status,
      durationMs: entry.durationMs,
      keyId: entry.keyId,
      userId: entry.userId,
      ownerId: entry.ownerId,
      ip: entry.ip,
      userAgent: entry.userAgent,
      requestId: entry.requestId,
    });
  }

  /** A page of the user's entries that pass the query, newest first. */
  list(ownerId: string | null, query: RequestLogQuery) {
    const from = query.from === undefined ? undefined : Date.parse(query.from);
    const to = query.to === undefined ? undefined : Date.parse(query.to);
    if (from !== undefined && to !== undefined && from > to)
      throw new ApiError('validation_error', 'Invalid query field "from": it comes after "to"', {
        in: 'query',
        field: 'from',
      });
    const status = query.status;
    const matching = this.#entries
      .filter(
        (e) =>
          e.ownerId === ownerId &&
          (status === undefined ||
            (status.endsWith('xx') ? String(e.status)[0] === status[0] : String(e.status) === status)) &&
          (query.method === undefined || e.method === query.method) &&
          (query.path === undefined || e.path.startsWith(query.path)) &&
          (query.keyId === undefined || e.keyId === query.keyId) &&
          (from === undefined || e.at >= from) &&
          (to === undefined || e.at < to),
      )
      .reverse();
    return {
      data: matching.slice(query.skip, query.skip + query.limit).map(publicEntry),
      total: matching.length,
      limit: query.limit,
      skip: query.skip,
    };
  }

  /** The user's newest entry with this request id; 404 `not_found` when there is none. */
  get(ownerId: string, requestId: string): RequestLogEntry {
    const found = this.#entries.findLast((e) => e.ownerId === ownerId && e.requestId === requestId);
    if (!found) throw new ApiError('not_found', 'No logged request has this id', { requestId });
    return publicEntry(found);
  }
}

function publicEntry({ ownerId: _owner, at: _at, ...entry }: LoggedRequest): RequestLogEntry {
  return entry;
}
