import type { Sql } from 'postgres';
import type { EngineKeyStore, KeyAuthRow, KeyOwner, KeyRow, NewKey } from '../keys.js';

/** The row of the authentication read: the key's fields with the owner's billing flattened. */
type AuthRow = Omit<KeyAuthRow, 'billing'> & KeyAuthRow['billing'];

/** API keys on PostgreSQL. */
export class PostgresKeys implements EngineKeyStore {
  constructor(private readonly sql: Sql) {}

  private columns() {
    return this.sql`id, name, cluster_id AS "clusterId", scopes, status, created_at AS "createdAt",
      expires_at AS "expiresAt", last_used_at AS "lastUsedAt", last_rotated_at AS "lastRotatedAt"`;
  }

  private ownedBy(owner: KeyOwner) {
    return owner.robotId === null
      ? this.sql`owner_id = ${owner.userId} AND robot_id IS NULL`
      : this.sql`owner_id = ${owner.userId} AND robot_id = ${owner.robotId}`;
  }

  async readForAuth(keyId: string): Promise<KeyAuthRow | null> {
    const [row] = await this.sql<AuthRow[]>`
      SELECT k.id AS "keyId", k.cluster_id AS "clusterId", c.status AS "clusterStatus", m.role AS "clusterRole", k.scopes, k.status,
             COALESCE(payer.status, 'active') AS "billingStatus",
             k.expires_at AS "expiresAt", k.secret_hash AS "secretHash",
             b.plan, b.trial_expires_at AS "trialExpiresAt", b.enterprise
      FROM api_keys k
      JOIN clusters c ON c.id = k.cluster_id
      LEFT JOIN cluster_members m ON m.cluster_id = k.cluster_id AND m.user_id = k.owner_id
      JOIN billing_accounts b ON b.user_id = k.owner_id
      LEFT JOIN billing_accounts payer ON payer.user_id = c.owner_id
      WHERE k.id = ${keyId}`;
    if (!row) return null;
    const { plan, trialExpiresAt, enterprise, ...key } = row;
    return { ...key, billing: { plan, trialExpiresAt, enterprise } };
  }

  async create(key: NewKey): Promise<void> {
    await this.sql`
      INSERT INTO api_keys (id, cluster_id, owner_id, robot_id, name, scopes, secret_hash, status, created_at, expires_at)
      VALUES (${key.id}, ${key.clusterId}, ${key.ownerId}, ${key.robotId ?? null}, ${key.name},
              ${this.sql.json(key.scopes)}, ${key.secretHash}, 'active', ${key.createdAt}, ${key.expiresAt})`;
  }

  async setStatus(keyId: string, status: 'active' | 'paused'): Promise<void> {
    await this.sql`UPDATE api_keys SET status = ${status} WHERE id = ${keyId}`;
  }

  async list(owner: KeyOwner): Promise<KeyRow[]> {
    const rows = await this.sql<KeyRow[]>`
      SELECT ${this.columns()} FROM api_keys WHERE ${this.ownedBy(owner)} ORDER BY created_at DESC, seq DESC`;
    return [...rows];
  }

  async get(owner: KeyOwner, keyId: string): Promise<KeyRow | null> {
    const [row] = await this.sql<KeyRow[]>`
      SELECT ${this.columns()} FROM api_keys WHERE id = ${keyId} AND ${this.ownedBy(owner)}`;
    return row ?? null;
  }

  async rotate(keyId: string, secretHash: Buffer, rotatedAt: string): Promise<boolean> {
    const result = await this.sql`
      UPDATE api_keys SET secret_hash = ${secretHash}, last_rotated_at = ${rotatedAt} WHERE id = ${keyId}`;
    return result.count === 1;
  }

  async delete(keyId: string): Promise<boolean> {
    // The usage history goes with the key (ON DELETE CASCADE).
    const result = await this.sql`DELETE FROM api_keys WHERE id = ${keyId}`;
    return result.count === 1;
  }
}
