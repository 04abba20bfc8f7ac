import type Database from 'better-sqlite3';
import type { NewNotification, Notification, NotificationStore } from '../notifications.js';

interface Row {
  id: string;
  kind: string;
  message: string;
  data: string;
  createdAt: string;
  readAt: string | null;
}

/** Notifications of users on SQLite. */
export class SqliteNotifications implements NotificationStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        'INSERT INTO notifications (id, user_id, kind, message, data, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      page: db.prepare<[string, number, number], Row>(
        `SELECT id, kind, message, data, created_at AS createdAt, read_at AS readAt FROM notifications
         WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      ),
      count: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM notifications WHERE user_id = ?'),
    };
  }

  async create(n: NewNotification): Promise<void> {
    this.stmt.insert.run(n.id, n.userId, n.kind, n.message, JSON.stringify(n.data), n.createdAt);
  }

  async list(userId: string, page: { limit: number; skip: number }) {
    const rows: Notification[] = this.stmt.page
      .all(userId, page.limit, page.skip)
      .map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
    return { rows, total: this.stmt.count.get(userId)!.n };
  }
}
