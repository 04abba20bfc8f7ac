import type { Sql } from 'postgres';
import type { NewNotification, Notification, NotificationStore } from '../notifications.js';

/** Notifications of users on PostgreSQL. */
export class PostgresNotifications implements NotificationStore {
  constructor(private readonly sql: Sql) {}

  async create(n: NewNotification): Promise<void> {
    await this.sql`INSERT INTO notifications (id, user_id, kind, message, data, created_at)
                   VALUES (${n.id}, ${n.userId}, ${n.kind}, ${n.message}, ${this.sql.json(n.data as never)}, ${n.createdAt})`;
  }

  async list(userId: string, page: { limit: number; skip: number }) {
    const [rows, [count]] = await Promise.all([
      this.sql<Notification[]>`
        SELECT id, kind, message, data, created_at AS "createdAt", read_at AS "readAt" FROM notifications
        WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.skip}`,
      this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${userId}`,
    ]);
    return { rows: [...rows], total: count!.n };
  }
}
