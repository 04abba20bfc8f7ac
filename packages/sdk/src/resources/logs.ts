import type { ActivityEntry, RequestLogEntry } from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';
import { segment } from '../internal/utils.js';

/** Filters and page of the request log; every filter is optional and they combine. */
export interface RequestLogParams {
  /** A status code (`'404'`) or a class of them (`'4xx'`). */
  status?: string;
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  /** Paths that start with this. */
  path?: string;
  keyId?: string;
  clusterId?: string;
  /** ISO 8601 instants: from inclusive, to exclusive. */
  from?: string;
  to?: string;
  limit?: number;
  skip?: number;
}

const query = (p: RequestLogParams) => ({
  status: p.status,
  method: p.method,
  path: p.path,
  keyId: p.keyId,
  clusterId: p.clusterId,
  from: p.from,
  to: p.to,
  limit: p.limit,
  skip: p.skip,
});

/**
 * Every request the server answered, newest first, with no secret in it: `/api/logs/requests`.
 * @example for await (const r of client.logs.requests.list({ status: '5xx' })) console.log(r.t, r.path, r.status);
 */
export class RequestLogs extends APIResource {
  /**
   * With a session: the user's own requests and those to the clusters they are a member of. Listing is logged
   * too, so a `for await` walk over a filter that matches its own requests should give `to`.
   */
  list(params: RequestLogParams = {}, options?: RequestOptions): PagePromise<RequestLogEntry> {
    return this._client.getAPIList('/api/logs/requests', query(params), options);
  }

  /** With a session: the latest logged request with this X-Request-Id (NotFoundError when there is none). */
  get(requestId: string, options?: RequestOptions): APIPromise<RequestLogEntry> {
    return this._client.get(`/api/logs/requests/${segment(requestId, 'request id')}`, options);
  }

  /** With an API key that has `logs:read`: the requests to the key's cluster. */
  listByKey(params: RequestLogParams = {}, options?: RequestOptions): PagePromise<RequestLogEntry> {
    return this._client.getAPIList('/api/v1/logs/requests', query(params), options);
  }
}

/**
 * Logs of the signed-in user's account, under `/api/logs`.
 * @example for await (const entry of client.logs.activity()) console.log(entry.createdAt, entry.action, entry.ip);
 */
export class Logs extends APIResource {
  /** The request log: `/api/logs/requests`. */
  readonly requests: RequestLogs = new RequestLogs(this._client);

  /** The activity log, newest first: await for a page, or `for await` for every entry. */
  activity(
    params: { limit?: number; skip?: number } = {},
    options?: RequestOptions,
  ): PagePromise<ActivityEntry> {
    return this._client.getAPIList('/api/logs/activity', { limit: params.limit, skip: params.skip }, options);
  }
}
