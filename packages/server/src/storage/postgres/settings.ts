import type { Sql } from 'postgres';
import type { SettingsChange, StoredSettings, UserSettingsStore } from '../settings.js';

const NONE: StoredSettings = { timezone: null, sessionLifetimeHours: null, defaultClusterId: null };

/** Settings of users on PostgreSQL. */
export class PostgresSettings implements UserSettingsStore {
  constructor(private readonly sql: Sql) {}

  async get(userId: string): Promise<StoredSettings> {
    const [row] = await this.sql<StoredSettings[]>`
      SELECT timezone, session_lifetime_hours AS "sessionLifetimeHours", default_cluster_id AS "defaultClusterId"
      FROM user_settings WHERE user_id = ${userId}`;
    return row ?? NONE;
  }

  async update(userId: string, change: SettingsChange, now: string): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`INSERT INTO user_settings (user_id, updated_at) VALUES (${userId}, ${now})
               ON CONFLICT (user_id) DO UPDATE SET updated_at = excluded.updated_at`;
      if (change.timezone !== undefined)
        await tx`UPDATE user_settings SET timezone = ${change.timezone} WHERE user_id = ${userId}`;
      if (change.sessionLifetimeHours !== undefined)
        await tx`UPDATE user_settings SET session_lifetime_hours = ${change.sessionLifetimeHours} WHERE user_id = ${userId}`;
      if (change.defaultClusterId !== undefined)
        await tx`UPDATE user_settings SET default_cluster_id = ${change.defaultClusterId} WHERE user_id = ${userId}`;
      if (change.name !== undefined) await tx`UPDATE users SET name = ${change.name} WHERE id = ${userId}`;
      if (change.ipAllowlist !== undefined)
        await tx`INSERT INTO ip_allowlists (user_id, entries, updated_at)
                 VALUES (${userId}, ${tx.json([...change.ipAllowlist])}, ${now})
                 ON CONFLICT (user_id) DO UPDATE SET entries = excluded.entries, updated_at = excluded.updated_at`;
    });
  }

  async isMember(userId: string, clusterId: string): Promise<boolean> {
    const [row] = await this.sql`
      SELECT 1 FROM cluster_members WHERE user_id = ${userId} AND cluster_id = ${clusterId}`;
    return row !== undefined;
  }
}
