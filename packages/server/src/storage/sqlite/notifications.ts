import type Database from 'better-sqlite3';
import type {
  ExpiringKey,
  NewNotification,
  Notification,
  NotificationCursor,
  NotificationStore,
  StoredPreference,
} from '../notifications.js';

interface Row extends Omit<Notification, 'data'> {
  data: string;
}

const COLUMNS = 'id, kind, title, message AS body, link, data, created_at AS createdAt, read_at AS readAt';

function parsed(row: Row): Notification {
  return { ...row, data: JSON.parse(row.data) as Record<string, unknown> };
}

/** Notifications of users on SQLite. */
export class SqliteNotifications implements NotificationStore {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO notifications (id, user_id, kind, title, message, link, data, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      page: db.prepare<[string, number, number, number], Row>(
        `SELECT ${COLUMNS} FROM notifications WHERE user_id = ? AND (? = 0 OR read_at IS NULL)
         ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      ),
      count: db.prepare<[string, number], { n: number }>(
        'SELECT COUNT(*) AS n FROM notifications WHERE user_id = ? AND (? = 0 OR read_at IS NULL)',
      ),
      after: db.prepare<[string, string, string, string, number], Row>(
        `SELECT ${COLUMNS} FROM notifications WHERE user_id = ? AND (created_at > ? OR (created_at = ? AND id > ?))
         ORDER BY created_at, id LIMIT ?`,
      ),
      find: db.prepare<[string, string], Row>(
        `SELECT ${COLUMNS} FROM notifications WHERE user_id = ? AND id = ?`,
      ),
      read: db.prepare(
        'UPDATE notifications SET read_at = COALESCE(read_at, ?) WHERE user_id = ? AND id = ?',
      ),
      readAll: db.prepare('UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL'),
      delete: db.prepare('DELETE FROM notifications WHERE user_id = ? AND id = ?'),
      preferences: db.prepare<[string], { kind: string; inApp: number; email: number }>(
        'SELECT kind, in_app AS inApp, email FROM notification_preferences WHERE user_id = ? ORDER BY kind',
      ),
      setPreference: db.prepare(
        `INSERT INTO notification_preferences (user_id, kind, in_app, email) VALUES (?, ?, ?, ?)
         ON CONFLICT (user_id, kind) DO UPDATE SET in_app = excluded.in_app, email = excluded.email`,
      ),
      expiring: db.prepare<[string, string, string], ExpiringKey>(
        `UPDATE api_keys SET expiry_noticed_at = ?
         WHERE expiry_noticed_at IS NULL AND status = 'active' AND expires_at IS NOT NULL
           AND expires_at > ? AND expires_at <= ?
         RETURNING id AS keyId, owner_id AS ownerId, cluster_id AS clusterId, name, expires_at AS expiresAt`,
      ),
    };
  }

  async create(n: NewNotification): Promise<void> {
    this.stmt.insert.run(
      n.id,
      n.userId,
      n.kind,
      n.title,
      n.body,
      n.link,
      JSON.stringify(n.data),
      n.createdAt,
    );
  }

  async list(userId: string, page: { limit: number; skip: number; unread?: boolean }) {
    const only = page.unread ? 1 : 0;
    return {
      rows: this.stmt.page.all(userId, only, page.limit, page.skip).map(parsed),
      total: this.stmt.count.get(userId, only)!.n,
      unread: this.stmt.count.get(userId, 1)!.n,
    };
  }

  async after(userId: string, cursor: NotificationCursor, limit: number): Promise<Notification[]> {
    return this.stmt.after.all(userId, cursor.createdAt, cursor.createdAt, cursor.id, limit).map(parsed);
  }

  async find(userId: string, id: string): Promise<Notification | null> {
    const row = this.stmt.find.get(userId, id);
    return row ? parsed(row) : null;
  }

  async markRead(userId: string, id: string, now: string): Promise<boolean> {
    return this.stmt.read.run(now, userId, id).changes > 0;
  }

  async markAllRead(userId: string, now: string): Promise<number> {
    return this.stmt.readAll.run(now, userId).changes;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return this.stmt.delete.run(userId, id).changes > 0;
  }

  async preferences(userId: string): Promise<StoredPreference[]> {
    return this.stmt.preferences
      .all(userId)
      .map((row) => ({ kind: row.kind, inApp: row.inApp === 1, email: row.email === 1 }));
  }

  async setPreferences(userId: string, preferences: readonly StoredPreference[]): Promise<void> {
    this.db.transaction(() => {
      for (const p of preferences)
        this.stmt.setPreference.run(userId, p.kind, p.inApp ? 1 : 0, p.email ? 1 : 0);
    })();
  }

  async takeExpiringKeys(before: string, now: string): Promise<ExpiringKey[]> {
    return this.stmt.expiring.all(now, now, before);
  }
}
