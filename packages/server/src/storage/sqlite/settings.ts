import type Database from 'better-sqlite3';
import type { SettingsChange, StoredSettings, UserSettingsStore } from '../settings.js';

const NONE: StoredSettings = { timezone: null, sessionLifetimeHours: null, defaultClusterId: null };

/** Settings of users on SQLite. */
export class SqliteSettings implements UserSettingsStore {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      get: db.prepare<[string], StoredSettings>(
        `SELECT timezone, session_lifetime_hours AS sessionLifetimeHours, default_cluster_id AS defaultClusterId
         FROM user_settings WHERE user_id = ?`,
      ),
      ensure: db.prepare(
        'INSERT INTO user_settings (user_id, updated_at) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET updated_at = excluded.updated_at',
      ),
      timezone: db.prepare('UPDATE user_settings SET timezone = ? WHERE user_id = ?'),
      lifetime: db.prepare('UPDATE user_settings SET session_lifetime_hours = ? WHERE user_id = ?'),
      cluster: db.prepare('UPDATE user_settings SET default_cluster_id = ? WHERE user_id = ?'),
      name: db.prepare('UPDATE users SET name = ? WHERE id = ?'),
      allowlist: db.prepare(
        `INSERT INTO ip_allowlists (user_id, entries, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET entries = excluded.entries, updated_at = excluded.updated_at`,
      ),
      member: db.prepare<[string, string], { one: number }>(
        'SELECT 1 AS one FROM cluster_members WHERE user_id = ? AND cluster_id = ?',
      ),
    };
  }

  async get(userId: string): Promise<StoredSettings> {
    return this.stmt.get.get(userId) ?? NONE;
  }

  async update(userId: string, change: SettingsChange, now: string): Promise<void> {
    this.db
      .transaction(() => {
        this.stmt.ensure.run(userId, now);
        if (change.timezone !== undefined) this.stmt.timezone.run(change.timezone, userId);
        if (change.sessionLifetimeHours !== undefined)
          this.stmt.lifetime.run(change.sessionLifetimeHours, userId);
        if (change.defaultClusterId !== undefined) this.stmt.cluster.run(change.defaultClusterId, userId);
        if (change.name !== undefined) this.stmt.name.run(change.name, userId);
        if (change.ipAllowlist !== undefined)
          this.stmt.allowlist.run(userId, JSON.stringify(change.ipAllowlist), now);
      })
      .immediate();
  }

  async isMember(userId: string, clusterId: string): Promise<boolean> {
    return this.stmt.member.get(userId, clusterId) !== undefined;
  }
}
