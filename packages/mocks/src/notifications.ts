import {
  type Notification,
  type NotificationKind,
  type NotificationPreferences,
  preferencesWith,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import { createIdGenerator } from './ids.js';

interface UserNotifications {
  list: Notification[];
  chosen: { kind: string; inApp: boolean; email: boolean }[];
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', 'You have no notification with this id', { id });
}

/**
 * The users' notifications, with the server's rules: a kind whose in-app preference is off is not kept; another
 * user's notification is 404. The mocks send no e-mail, and raise only what they know of (a locked sign-in, a
 * sign-in from a new address).
 */
export class NotificationModel {
  readonly #users = new Map<string, UserNotifications>();
  readonly #id = createIdGenerator();

  raise(userId: string, kind: NotificationKind, text: { title: string; body: string; link?: string }): void {
    const user = this.#of(userId);
    if (!preferencesWith(user.chosen)[kind].inApp) return;
    user.list.unshift({
      _id: `ntf_${this.#id()}`,
      kind,
      title: text.title,
      body: text.body,
      link: text.link ?? null,
      createdAt: new Date().toISOString(),
      readAt: null,
    });
  }

  list(userId: string, query: { unread?: boolean | undefined; limit: number; skip: number }) {
    const all = this.#of(userId).list;
    const matching = query.unread ? all.filter((n) => n.readAt === null) : all;
    return {
      data: matching.slice(query.skip, query.skip + query.limit),
      total: matching.length,
      unread: all.filter((n) => n.readAt === null).length,
      limit: query.limit,
      skip: query.skip,
    };
  }

  read(userId: string, id: string): Notification {
    const found = this.#of(userId).list.find((n) => n._id === id);
    if (!found) throw notFound(id);
    found.readAt ??= new Date().toISOString();
    return found;
  }

  readAll(userId: string) {
    const now = new Date().toISOString();
    const unread = this.#of(userId).list.filter((n) => n.readAt === null);
    for (const n of unread) n.readAt = now;
    return { read: unread.length };
  }

  delete(userId: string, id: string) {
    const user = this.#of(userId);
    const at = user.list.findIndex((n) => n._id === id);
    if (at < 0) throw notFound(id);
    user.list.splice(at, 1);
    return { _id: id, deleted: true as const };
  }

  preferences(userId: string): NotificationPreferences {
    return preferencesWith(this.#of(userId).chosen);
  }

  setPreferences(userId: string, change: Partial<Record<string, { inApp: boolean; email: boolean }>>) {
    const user = this.#of(userId);
    for (const [kind, channels] of Object.entries(change)) {
      if (!channels) continue;
      user.chosen = [...user.chosen.filter((p) => p.kind !== kind), { kind, ...channels }];
    }
    return this.preferences(userId);
  }

  #of(userId: string): UserNotifications {
    let user = this.#users.get(userId);
    if (!user) {
      user = { list: [], chosen: [] };
      this.#users.set(userId, user);
    }
    return user;
  }
}
