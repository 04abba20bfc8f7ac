import type Database from 'better-sqlite3';
import type { ServerSecretStore } from '../secrets.js';

/** Secrets the server made for itself, on SQLite. */
export class SqliteSecrets implements ServerSecretStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        'INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
      ),
      get: db.prepare<[string], { value: string }>('SELECT value FROM server_secrets WHERE name = ?'),
    };
  }

  async getOrCreate(name: string, make: () => string): Promise<string> {
    const existing = this.stmt.get.get(name);
    if (existing) return existing.value;
    this.stmt.insert.run(name, make(), new Date().toISOString());
    return this.stmt.get.get(name)!.value;
  }
}
