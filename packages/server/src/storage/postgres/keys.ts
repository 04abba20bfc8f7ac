import type { Sql } from 'postgres';
import { rateTierOf } from '../../auth/tiers.js';
import type { KeyStore, NewKey, StoredKey } from '../types.js';

interface AuthRow {
  keyId: string;
  clusterId: string;
  clusterStatus: string;
  scopes: string[];
  status: 'active' | 'paused';
  expiresAt: string | null;
  secretHash: Buffer;
  plan: string;
  trialExpiresAt: string | null;
  enterprise: boolean;
}

/** API keys on PostgreSQL. */
export class PostgresKeys implements KeyStore {
  constructor(private readonly sql: Sql) {}

  async findForAuth(keyId: string): Promise<StoredKey | null> {
    const [row] = await this.sql<AuthRow[]>`
      SELECT k.id AS "keyId", k.cluster_id AS "clusterId", c.status AS "clusterStatus", k.scopes, k.status,
             k.expires_at AS "expiresAt", k.secret_hash AS "secretHash",
             b.plan, b.trial_expires_at AS "trialExpiresAt", b.enterprise
      FROM api_keys k
      JOIN clusters c ON c.id = k.cluster_id
      JOIN billing_accounts b ON b.user_id = k.owner_id
      WHERE k.id = ${keyId}`;
    if (!row) return null;
    const { plan, trialExpiresAt, enterprise, ...key } = row;
    return { ...key, tier: rateTierOf({ plan, trialExpiresAt, enterprise }) };
  }

  async create(key: NewKey): Promise<void> {
    await this.sql`
      INSERT INTO api_keys (id, cluster_id, owner_id, name, scopes, secret_hash, status, created_at, expires_at)
      VALUES (${key.id}, ${key.clusterId}, ${key.ownerId}, ${key.name}, ${this.sql.json(key.scopes)}, ${key.secretHash},
              'active', ${key.createdAt}, ${key.expiresAt})`;
  }

  async setStatus(keyId: string, status: 'active' | 'paused'): Promise<void> {
    await this.sql`UPDATE api_keys SET status = ${status} WHERE id = ${keyId}`;
  }
}
