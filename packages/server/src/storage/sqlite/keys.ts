import type Database from 'better-sqlite3';
import { rateTierOf } from '../../auth/tiers.js';
import type { KeyStore, NewKey, StoredKey } from '../types.js';
import type { AuthCache, CachedKey } from './auth-cache.js';

interface AuthRow {
  keyId: string;
  clusterId: string;
  clusterStatus: string;
  scopes: string;
  status: 'active' | 'paused';
  expiresAt: string | null;
  secretHash: Buffer;
  plan: string;
  trialExpiresAt: string | null;
  enterprise: number;
}

/** API keys on SQLite. */
export class SqliteKeys implements KeyStore {
  private readonly stmt;

  constructor(
    db: Database.Database,
    private readonly cache: AuthCache,
  ) {
    this.stmt = {
      findForAuth: db.prepare<[string], AuthRow>(`
        SELECT k.id AS keyId, k.cluster_id AS clusterId, c.status AS clusterStatus, k.scopes, k.status,
               k.expires_at AS expiresAt, k.secret_hash AS secretHash,
               b.plan, b.trial_expires_at AS trialExpiresAt, b.enterprise
        FROM api_keys k
        JOIN clusters c ON c.id = k.cluster_id
        JOIN billing_accounts b ON b.user_id = k.owner_id
        WHERE k.id = ?`),
      insert: db.prepare(`
        INSERT INTO api_keys (id, cluster_id, owner_id, name, scopes, secret_hash, status, created_at, expires_at)
        VALUES (@id, @clusterId, @ownerId, @name, @scopes, @secretHash, 'active', @createdAt, @expiresAt)`),
      setStatus: db.prepare('UPDATE api_keys SET status = ? WHERE id = ?'),
    };
  }

  async findForAuth(keyId: string): Promise<StoredKey | null> {
    let cached = this.cache.get(keyId);
    if (!cached) {
      const row = this.stmt.findForAuth.get(keyId);
      if (!row) return null;
      cached = toCached(row);
      this.cache.set(keyId, cached);
    }
    return { ...cached.key, tier: rateTierOf(cached.billing) };
  }

  async create(key: NewKey): Promise<void> {
    this.cache.invalidate();
    this.stmt.insert.run({ ...key, scopes: JSON.stringify(key.scopes) });
  }

  async setStatus(keyId: string, status: 'active' | 'paused'): Promise<void> {
    this.cache.invalidate();
    this.stmt.setStatus.run(status, keyId);
  }
}

function toCached(row: AuthRow): CachedKey {
  return {
    key: {
      keyId: row.keyId,
      clusterId: row.clusterId,
      clusterStatus: row.clusterStatus,
      scopes: JSON.parse(row.scopes),
      status: row.status,
      expiresAt: row.expiresAt,
      secretHash: row.secretHash,
    },
    billing: { plan: row.plan, trialExpiresAt: row.trialExpiresAt, enterprise: row.enterprise === 1 },
  };
}
