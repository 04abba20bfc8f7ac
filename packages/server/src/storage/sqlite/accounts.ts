import type Database from 'better-sqlite3';
import type { AccountStore, BillingRecord, NewAccount, UserCredentials, UserRecord } from '../accounts.js';

/** Users, billing accounts and clusters on SQLite. */
export class SqliteAccounts implements AccountStore {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      user: db.prepare(
        'INSERT INTO users (id, email, name, password_hash, created_at) VALUES (@id, @email, @name, @passwordHash, @createdAt)',
      ),
      billing: db.prepare(
        'INSERT INTO billing_accounts (id, user_id, plan, trial_expires_at, enterprise) VALUES (@id, @userId, @plan, @trialExpiresAt, @enterprise)',
      ),
      planChange: db.prepare(
        'INSERT INTO billing_plan_changes (user_id, plan, changed_at) VALUES (@userId, @plan, @changedAt)',
      ),
      cluster: db.prepare(
        "INSERT INTO clusters (id, owner_id, name, region, tier, status, created_at) VALUES (@id, @ownerId, @name, @region, @tier, 'running', @createdAt)",
      ),
      owner: db.prepare(
        "INSERT INTO cluster_members (cluster_id, user_id, role, created_at) VALUES (@clusterId, @userId, 'owner', @createdAt)",
      ),
      countUsers: db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM users'),
      byEmail: db.prepare<[string], UserCredentials>(
        'SELECT id, email, name, created_at AS createdAt, password_hash AS passwordHash FROM users WHERE email = ?',
      ),
      byId: db.prepare<[string], UserRecord>(
        'SELECT id, email, name, created_at AS createdAt FROM users WHERE id = ?',
      ),
      billingOf: db.prepare<[string], BillingRow>(
        `SELECT id, plan, credits, trial_expires_at AS trialExpiresAt, enterprise, status
         FROM billing_accounts WHERE user_id = ?`,
      ),
      // Leaving payg ends a suspension: other plans are not paid from credits.
      setPlan: db.prepare(
        `UPDATE billing_accounts SET plan = @plan,
           status = CASE WHEN @plan <> 'payg' AND status = 'suspended' THEN 'active' ELSE status END
         WHERE user_id = @userId`,
      ),
      allowlist: db.prepare<[string], { entries: string }>(
        'SELECT entries FROM ip_allowlists WHERE user_id = ?',
      ),
      setAllowlist: db.prepare(
        `INSERT INTO ip_allowlists (user_id, entries, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET entries = excluded.entries, updated_at = excluded.updated_at`,
      ),
      ownedCluster: db.prepare<[string, string], { id: string }>(
        'SELECT id FROM clusters WHERE owner_id = ? AND id = ?',
      ),
      firstCluster: db.prepare<[string], { id: string }>(
        'SELECT id FROM clusters WHERE owner_id = ? ORDER BY created_at, rowid LIMIT 1',
      ),
    };
  }

  async create({ user, billing, cluster }: NewAccount): Promise<'created' | 'email_taken'> {
    try {
      this.db.transaction(() => {
        this.stmt.user.run(user);
        this.stmt.billing.run({ ...billing, userId: user.id, enterprise: billing.enterprise ? 1 : 0 });
        this.stmt.planChange.run({ userId: user.id, plan: billing.plan, changedAt: user.createdAt });
        this.stmt.cluster.run({ ...cluster, ownerId: user.id, createdAt: user.createdAt });
        this.stmt.owner.run({ clusterId: cluster.id, userId: user.id, createdAt: user.createdAt });
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

  async findByEmail(email: string): Promise<UserCredentials | null> {
    return this.stmt.byEmail.get(email) ?? null;
  }

  async findUser(userId: string): Promise<UserRecord | null> {
    return this.stmt.byId.get(userId) ?? null;
  }

  async billing(userId: string): Promise<BillingRecord | null> {
    const row = this.stmt.billingOf.get(userId);
    return row ? { ...row, enterprise: row.enterprise === 1 } : null;
  }

  async setPlan(userId: string, plan: string, changedAt: string): Promise<BillingRecord | null> {
    const changed = this.db
      .transaction(() => {
        if (this.stmt.setPlan.run({ plan, userId }).changes === 0) return false;
        this.stmt.planChange.run({ userId, plan, changedAt });
        return true;
      })
      .immediate();
    return changed ? this.billing(userId) : null;
  }

  async ipAllowlist(userId: string): Promise<string[]> {
    const row = this.stmt.allowlist.get(userId);
    return row ? (JSON.parse(row.entries) as string[]) : [];
  }

  async setIpAllowlist(userId: string, entries: readonly string[], now: string): Promise<void> {
    this.stmt.setAllowlist.run(userId, JSON.stringify(entries), now);
  }

  async ownedCluster(userId: string, clusterId: string | null): Promise<string | null> {
    const row =
      clusterId === null ? this.stmt.firstCluster.get(userId) : this.stmt.ownedCluster.get(userId, clusterId);
    return row?.id ?? null;
  }
}

type BillingRow = Omit<BillingRecord, 'enterprise'> & { enterprise: number };
