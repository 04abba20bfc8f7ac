import type { ActivityEntry } from '../contract-types.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';

/**
 * Logs of the signed-in user's account, under `/api/logs`.
 * @example for await (const entry of client.logs.activity()) console.log(entry.createdAt, entry.action, entry.ip);
 */
export class Logs extends APIResource {
  /** The activity log, newest first: await for a page, or `for await` for every entry. */
  activity(
    params: { limit?: number; skip?: number } = {},
    options?: RequestOptions,
  ): PagePromise<ActivityEntry> {
    return this._client.getAPIList('/api/logs/activity', { limit: params.limit, skip: params.skip }, options);
  }
}
