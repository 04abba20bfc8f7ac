import type Database from 'better-sqlite3';
import type { AccountStore, NewAccount } from '../types.js';
import type { AuthCache } from './auth-cache.js';

/** Users, billing accounts and clusters on SQLite. */
export class SqliteAccounts implements AccountStore {
  private readonly stmt;

  constructor(
    private readonly db: Database.Database,
    private readonly authCache: AuthCache,
  ) {
    this.stmt = {
      user: db.prepare(
        'INSERT INTO users (id, email, name, password_hash, created_at) VALUES (@id, @email, @name, @passwordHash, @createdAt)',
      ),
      billing: db.prepare(
        'INSERT INTO billing_accounts (id, user_id, plan, trial_expires_at, enterprise) VALUES (@id, @userId, @plan, @trialExpiresAt, @enterprise)',
      ),
      cluster: db.prepare(
        "INSERT INTO clusters (id, owner_id, name, region, tier, status, created_at) VALUES (@id, @ownerId, @name, @region, @tier, 'running', @createdAt)",
      ),
      countUsers: db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM users'),
      ownedCluster: db.prepare<[string, string], { id: string }>(
        'SELECT id FROM clusters WHERE owner_id = ? AND id = ?',
      ),
      firstCluster: db.prepare<[string], { id: string }>(
        'SELECT id FROM clusters WHERE owner_id = ? ORDER BY created_at, rowid LIMIT 1',
      ),
    };
  }

  async create({ user, billing, cluster }: NewAccount): Promise<'created' | 'email_taken'> {
    this.authCache.invalidate();
    try {
      this.db.transaction(() => {
        this.stmt.user.run(user);
        this.stmt.billing.run({ ...billing, userId: user.id, enterprise: billing.enterprise ? 1 : 0 });
        this.stmt.cluster.run({ ...cluster, ownerId: user.id, createdAt: user.createdAt });
      })();
      return 'created';
    } catch (error) {
      if (
        (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' &&
        String(error).includes('users.email')
      ) {
        return 'email_taken';
      }
      throw error;
    }
  }

  async countUsers(): Promise<number> {
    return this.stmt.countUsers.get()!.n;
  }

  async ownedCluster(userId: string, clusterId: string | null): Promise<string | null> {
    const row =
      clusterId === null ? this.stmt.firstCluster.get(userId) : this.stmt.ownedCluster.get(userId, clusterId);
    return row?.id ?? null;
  }
}
