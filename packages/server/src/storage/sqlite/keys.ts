import type Database from 'better-sqlite3';
import type { EngineKeyStore, KeyAuthRow, KeyOwner, KeyRow, NewKey } from '../keys.js';

/** The row of the authentication read: scopes as JSON text, the owner's billing flattened, booleans as 0 or 1. */
type AuthRow = Omit<KeyAuthRow, 'billing' | 'scopes'> &
  Omit<KeyAuthRow['billing'], 'enterprise'> & { scopes: string; enterprise: number };

type StoredRow = Omit<KeyRow, 'scopes'> & { scopes: string };

const ROW_COLUMNS = `id, name, cluster_id AS clusterId, scopes, status, created_at AS createdAt,
  expires_at AS expiresAt, last_used_at AS lastUsedAt, last_rotated_at AS lastRotatedAt`;

/** API keys on SQLite. */
export class SqliteKeys implements EngineKeyStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      findForAuth: db.prepare<[string], AuthRow>(`
        SELECT k.id AS keyId, k.cluster_id AS clusterId, c.status AS clusterStatus, m.role AS clusterRole, k.scopes, k.status,
               COALESCE(payer.status, 'active') AS billingStatus,
               k.expires_at AS expiresAt, k.secret_hash AS secretHash,
               b.plan, b.trial_expires_at AS trialExpiresAt, b.enterprise
        FROM api_keys k
        JOIN clusters c ON c.id = k.cluster_id
        LEFT JOIN cluster_members m ON m.cluster_id = k.cluster_id AND m.user_id = k.owner_id
        JOIN billing_accounts b ON b.user_id = k.owner_id
        LEFT JOIN billing_accounts payer ON payer.user_id = c.owner_id
        WHERE k.id = ?`),
      insert: db.prepare(`
        INSERT INTO api_keys (id, cluster_id, owner_id, robot_id, name, scopes, secret_hash, status, created_at, expires_at)
        VALUES (@id, @clusterId, @ownerId, @robotId, @name, @scopes, @secretHash, 'active', @createdAt, @expiresAt)`),
      setStatus: db.prepare('UPDATE api_keys SET status = ? WHERE id = ?'),
      // `rowid` breaks ties of keys made in the same millisecond: the later one first.
      listOfUser: db.prepare<[string], StoredRow>(
        `SELECT ${ROW_COLUMNS} FROM api_keys WHERE owner_id = ? AND robot_id IS NULL ORDER BY created_at DESC, rowid DESC`,
      ),
      listOfRobot: db.prepare<[string, string], StoredRow>(
        `SELECT ${ROW_COLUMNS} FROM api_keys WHERE owner_id = ? AND robot_id = ? ORDER BY created_at DESC, rowid DESC`,
      ),
      getOfUser: db.prepare<[string, string], StoredRow>(
        `SELECT ${ROW_COLUMNS} FROM api_keys WHERE id = ? AND owner_id = ? AND robot_id IS NULL`,
      ),
      getOfRobot: db.prepare<[string, string, string], StoredRow>(
        `SELECT ${ROW_COLUMNS} FROM api_keys WHERE id = ? AND owner_id = ? AND robot_id = ?`,
      ),
      rotate: db.prepare('UPDATE api_keys SET secret_hash = ?, last_rotated_at = ? WHERE id = ?'),
      delete: db.prepare('DELETE FROM api_keys WHERE id = ?'),
    };
  }

  async readForAuth(keyId: string): Promise<KeyAuthRow | null> {
    const row = this.stmt.findForAuth.get(keyId);
    if (!row) return null;
    const { plan, trialExpiresAt, enterprise, scopes, ...key } = row;
    return {
      ...key,
      scopes: JSON.parse(scopes),
      billing: { plan, trialExpiresAt, enterprise: enterprise === 1 },
    };
  }

  async create(key: NewKey): Promise<void> {
    this.stmt.insert.run({ ...key, robotId: key.robotId ?? null, scopes: JSON.stringify(key.scopes) });
  }

  async setStatus(keyId: string, status: 'active' | 'paused'): Promise<void> {
    this.stmt.setStatus.run(status, keyId);
  }

  async list(owner: KeyOwner): Promise<KeyRow[]> {
    const rows =
      owner.robotId === null
        ? this.stmt.listOfUser.all(owner.userId)
        : this.stmt.listOfRobot.all(owner.userId, owner.robotId);
    return rows.map(toKeyRow);
  }

  async get(owner: KeyOwner, keyId: string): Promise<KeyRow | null> {
    const row =
      owner.robotId === null
        ? this.stmt.getOfUser.get(keyId, owner.userId)
        : this.stmt.getOfRobot.get(keyId, owner.userId, owner.robotId);
    return row ? toKeyRow(row) : null;
  }

  async rotate(keyId: string, secretHash: Buffer, rotatedAt: string): Promise<boolean> {
    return this.stmt.rotate.run(secretHash, rotatedAt, keyId).changes === 1;
  }

  async delete(keyId: string): Promise<boolean> {
    // The usage history goes with the key (ON DELETE CASCADE).
    return this.stmt.delete.run(keyId).changes === 1;
  }
}

function toKeyRow(row: StoredRow): KeyRow {
  return { ...row, scopes: JSON.parse(row.scopes) };
}
