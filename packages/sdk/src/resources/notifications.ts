import type {
  DeletedResponse,
  Notification,
  NotificationList,
  NotificationPreferences,
  NotificationPreferencesUpdate,
  NotificationsRead,
} from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import { DataPlatformError } from '../core/error.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { EventStreamOptions, RequestOptions } from '../internal/request-options.js';
import { segment } from '../internal/utils.js';

/** Filter and page of the notification list. */
export interface NotificationListParams {
  /** Only the unread ones. */
  unread?: boolean;
  limit?: number;
  skip?: number;
}

/** Options of `stream()`. */
export type NotificationStreamOptions = Omit<EventStreamOptions, 'query'>;

const BASE = '/api/notifications';

const query = (p: NotificationListParams) => ({
  unread: p.unread === undefined ? undefined : String(p.unread),
  limit: p.limit,
  skip: p.skip,
});

/**
 * The signed-in user's notifications and where each kind goes, under `/api/notifications` (session only).
 * @example for await (const n of client.notifications.list({ unread: true })) console.log(n.title);
 */
export class Notifications extends APIResource {
  /** Newest first; iterate to walk every page. */
  list(params: NotificationListParams = {}, options?: RequestOptions): PagePromise<Notification> {
    return this._client.getAPIList(BASE, query(params), options);
  }

  /** One page as the server answers it, with `total` and the user's `unread` count. */
  page(params: NotificationListParams = {}, options?: RequestOptions): APIPromise<NotificationList> {
    return this._client.get(BASE, { ...options, query: query(params) });
  }

  /** Marks one read (its first `readAt` stays); NotFoundError for an id that is not the user's. */
  read(id: string, options?: RequestOptions): APIPromise<Notification> {
    return this._client.post(`${BASE}/${segment(id, 'notification id')}/read`, options);
  }

  /** Marks every unread one read; answers how many. */
  readAll(options?: RequestOptions): APIPromise<NotificationsRead> {
    return this._client.post(`${BASE}/read-all`, options);
  }

  /** Removes one; NotFoundError for an id that is not the user's. */
  delete(id: string, options?: RequestOptions): APIPromise<DeletedResponse> {
    return this._client.delete(`${BASE}/${segment(id, 'notification id')}`, options);
  }

  /** Every kind with its channels (`inApp`, `email`). */
  preferences(options?: RequestOptions): APIPromise<NotificationPreferences> {
    return this._client.get(`${BASE}/preferences`, options);
  }

  /** Sets the channels of the kinds named; the others keep theirs. */
  setPreferences(
    change: NotificationPreferencesUpdate,
    options?: RequestOptions,
  ): APIPromise<NotificationPreferences> {
    return this._client.put(`${BASE}/preferences`, { ...options, body: change });
  }

  /**
   * The notifications raised from now on (after `lastEventId` when given), until the connection ends; stop with
   * `break` or `options.signal`. Pass the last id as `lastEventId` when opening it again to miss nothing.
   * @example for await (const n of client.notifications.stream()) console.log(n.kind, n.title);
   */
  async *stream(options: NotificationStreamOptions = {}): AsyncGenerator<Notification, void, undefined> {
    for await (const event of this._client.getEventStream(`${BASE}/stream`, options)) {
      // The server's last word before it ends a stream (a reader too far behind): the caller resumes by id.
      if (event.event === 'error') return;
      try {
        yield JSON.parse(event.data) as Notification;
      } catch (error) {
        throw new DataPlatformError(`Could not parse notification ${event.id} of the stream as JSON`, {
          cause: error,
        });
      }
    }
  }
}
