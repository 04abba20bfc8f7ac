import {
  NOTIFICATION_KINDS,
  type Notification,
  type NotificationKind,
  type NotificationPreferences,
  preferencesWith,
} from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import type { Notification as StoredNotification } from '../storage/notifications.js';
import type { Storage } from '../storage/types.js';
import { type Clock, systemClock } from '../webhooks/clock.js';

/** A stored notification as the API shows it. */
export function notificationOf(row: StoredNotification): Notification {
  return {
    _id: row.id,
    kind: row.kind as NotificationKind,
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: row.createdAt,
    readAt: row.readAt,
  };
}

/** The signed-in user's notifications and preferences (`/api/notifications`). */
export class NotificationService {
  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock = systemClock,
  ) {}

  async list(userId: string, query: { unread?: boolean | undefined; limit: number; skip: number }) {
    const { rows, total, unread } = await this.storage.notifications.list(userId, {
      limit: query.limit,
      skip: query.skip,
      unread: query.unread === true,
    });
    return { data: rows.map(notificationOf), total, unread, limit: query.limit, skip: query.skip };
  }

  async read(userId: string, id: string): Promise<Notification> {
    if (!(await this.storage.notifications.markRead(userId, id, this.now()))) throw notFound(id);
    const row = await this.storage.notifications.find(userId, id);
    if (!row) throw notFound(id);
    return notificationOf(row);
  }

  async readAll(userId: string) {
    return { read: await this.storage.notifications.markAllRead(userId, this.now()) };
  }

  async delete(userId: string, id: string) {
    if (!(await this.storage.notifications.delete(userId, id))) throw notFound(id);
    return { _id: id, deleted: true as const };
  }

  async preferences(userId: string): Promise<NotificationPreferences> {
    return preferencesWith(await this.storage.notifications.preferences(userId));
  }

  async setPreferences(
    userId: string,
    change: Partial<Record<NotificationKind, { inApp: boolean; email: boolean } | undefined>>,
  ): Promise<NotificationPreferences> {
    const chosen = NOTIFICATION_KINDS.flatMap((kind) => {
      const channels = change[kind];
      return channels ? [{ kind, inApp: channels.inApp, email: channels.email }] : [];
    });
    await this.storage.notifications.setPreferences(userId, chosen);
    return this.preferences(userId);
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', 'You have no notification with this id', { id });
}
