import type { Sql } from 'postgres';
import type {
  ExpiringKey,
  NewNotification,
  Notification,
  NotificationCursor,
  NotificationStore,
  StoredPreference,
} from '../notifications.js';

/** Notifications of users on PostgreSQL. */
export class PostgresNotifications implements NotificationStore {
  constructor(private readonly sql: Sql) {}

  private get columns() {
    return this
      .sql`id, kind, title, message AS body, link, data, created_at AS "createdAt", read_at AS "readAt"`;
  }

  async create(n: NewNotification): Promise<void> {
    await this.sql`INSERT INTO notifications (id, user_id, kind, title, message, link, data, created_at)
                   VALUES (${n.id}, ${n.userId}, ${n.kind}, ${n.title}, ${n.body}, ${n.link},
                           ${this.sql.json(n.data as never)}, ${n.createdAt})`;
  }

  async list(userId: string, page: { limit: number; skip: number; unread?: boolean }) {
    const only = page.unread === true;
    const [rows, [count]] = await Promise.all([
      this.sql<Notification[]>`
        SELECT ${this.columns} FROM notifications WHERE user_id = ${userId} AND (NOT ${only} OR read_at IS NULL)
        ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.skip}`,
      this.sql<{ total: number; unread: number }[]>`
        SELECT count(*) FILTER (WHERE NOT ${only} OR read_at IS NULL)::int AS total,
               count(*) FILTER (WHERE read_at IS NULL)::int AS unread
        FROM notifications WHERE user_id = ${userId}`,
    ]);
    return { rows: [...rows], total: count!.total, unread: count!.unread };
  }

  async after(userId: string, cursor: NotificationCursor, limit: number): Promise<Notification[]> {
    return [
      ...(await this.sql<Notification[]>`
        SELECT ${this.columns} FROM notifications
        WHERE user_id = ${userId} AND (created_at, id) > (${cursor.createdAt}, ${cursor.id})
        ORDER BY created_at, id LIMIT ${limit}`),
    ];
  }

  async find(userId: string, id: string): Promise<Notification | null> {
    const [row] = await this.sql<Notification[]>`
      SELECT ${this.columns} FROM notifications WHERE user_id = ${userId} AND id = ${id}`;
    return row ?? null;
  }

  async markRead(userId: string, id: string, now: string): Promise<boolean> {
    const done = await this.sql`
      UPDATE notifications SET read_at = COALESCE(read_at, ${now}) WHERE user_id = ${userId} AND id = ${id}`;
    return done.count > 0;
  }

  async markAllRead(userId: string, now: string): Promise<number> {
    const done = await this.sql`
      UPDATE notifications SET read_at = ${now} WHERE user_id = ${userId} AND read_at IS NULL`;
    return done.count;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const done = await this.sql`DELETE FROM notifications WHERE user_id = ${userId} AND id = ${id}`;
    return done.count > 0;
  }

  async preferences(userId: string): Promise<StoredPreference[]> {
    return [
      ...(await this.sql<StoredPreference[]>`
        SELECT kind, in_app AS "inApp", email FROM notification_preferences WHERE user_id = ${userId} ORDER BY kind`),
    ];
  }

  async setPreferences(userId: string, preferences: readonly StoredPreference[]): Promise<void> {
    if (preferences.length === 0) return;
    const rows = preferences.map((p) => ({ user_id: userId, kind: p.kind, in_app: p.inApp, email: p.email }));
    await this.sql`
      INSERT INTO notification_preferences ${this.sql(rows)}
      ON CONFLICT (user_id, kind) DO UPDATE SET in_app = excluded.in_app, email = excluded.email`;
  }

  async takeExpiringKeys(before: string, now: string): Promise<ExpiringKey[]> {
    return [
      ...(await this.sql<ExpiringKey[]>`
        UPDATE api_keys SET expiry_noticed_at = ${now}
        WHERE expiry_noticed_at IS NULL AND status = 'active' AND expires_at IS NOT NULL
          AND expires_at > ${now} AND expires_at <= ${before}
        RETURNING id AS "keyId", owner_id AS "ownerId", cluster_id AS "clusterId", name, expires_at AS "expiresAt"`),
    ];
  }
}
