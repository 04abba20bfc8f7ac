import type { Sql } from 'postgres';
import type { ServerSecretStore } from '../secrets.js';

/** Secrets the server made for itself, on PostgreSQL: the first instance to store one wins, the others read it. */
export class PostgresSecrets implements ServerSecretStore {
  constructor(private readonly sql: Sql) {}

  async getOrCreate(name: string, make: () => string): Promise<string> {
    await this.sql`INSERT INTO server_secrets (name, value, created_at)
                   VALUES (${name}, ${make()}, ${new Date().toISOString()}) ON CONFLICT (name) DO NOTHING`;
    const [row] = await this.sql<{ value: string }[]>`SELECT value FROM server_secrets WHERE name = ${name}`;
    return row!.value;
  }
}
