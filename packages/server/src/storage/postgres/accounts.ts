import type { Sql } from 'postgres';
import type { AccountStore, BillingRecord, NewAccount, UserCredentials, UserRecord } from '../accounts.js';

/** Users, billing accounts and clusters on PostgreSQL. */
export class PostgresAccounts implements AccountStore {
  constructor(private readonly sql: Sql) {}

  async create({ user, billing, cluster }: NewAccount): Promise<'created' | 'email_taken'> {
    try {
      await this.insert({ user, billing, cluster });
      return 'created';
    } catch (error) {
      const { code, constraint_name } = error as { code?: string; constraint_name?: string };
      if (code === '23505' && constraint_name === 'users_email_key') return 'email_taken';
      throw error;
    }
  }

  private async insert({ user, billing, cluster }: NewAccount): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`INSERT INTO users (id, email, name, password_hash, created_at)
               VALUES (${user.id}, ${user.email}, ${user.name}, ${user.passwordHash}, ${user.createdAt})`;
      await tx`INSERT INTO billing_accounts (id, user_id, plan, trial_expires_at, enterprise)
               VALUES (${billing.id}, ${user.id}, ${billing.plan}, ${billing.trialExpiresAt}, ${billing.enterprise})`;
      await tx`INSERT INTO billing_plan_changes (user_id, plan, changed_at)
               VALUES (${user.id}, ${billing.plan}, ${user.createdAt})`;
      await tx`INSERT INTO clusters (id, owner_id, name, region, tier, status, created_at)
               VALUES (${cluster.id}, ${user.id}, ${cluster.name}, ${cluster.region}, ${cluster.tier}, 'running', ${user.createdAt})`;
      await tx`INSERT INTO cluster_members (cluster_id, user_id, role, created_at)
               VALUES (${cluster.id}, ${user.id}, 'owner', ${user.createdAt})`;
    });
  }

  async countUsers(): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM users`;
    return row!.n;
  }

  async findByEmail(email: string): Promise<UserCredentials | null> {
    const [row] = await this.sql<UserCredentials[]>`
      SELECT id, email, name, created_at AS "createdAt", password_hash AS "passwordHash"
      FROM users WHERE email = ${email}`;
    return row ?? null;
  }

  async findUser(userId: string): Promise<UserRecord | null> {
    const [row] = await this.sql<UserRecord[]>`
      SELECT id, email, name, created_at AS "createdAt" FROM users WHERE id = ${userId}`;
    return row ?? null;
  }

  async billing(userId: string): Promise<BillingRecord | null> {
    const [row] = await this.sql<BillingRecord[]>`
      SELECT id, plan, credits::float8 AS credits, trial_expires_at AS "trialExpiresAt", enterprise, status
      FROM billing_accounts WHERE user_id = ${userId}`;
    return row ?? null;
  }

  async setPlan(userId: string, plan: string, changedAt: string): Promise<BillingRecord | null> {
    const changed = await this.sql.begin(async (tx) => {
      // Leaving payg ends a suspension: other plans are not paid from credits.
      const updated = await tx`UPDATE billing_accounts SET plan = ${plan},
        status = CASE WHEN ${plan} <> 'payg' AND status = 'suspended' THEN 'active' ELSE status END
        WHERE user_id = ${userId}`;
      if (updated.count === 0) return false;
      await tx`INSERT INTO billing_plan_changes (user_id, plan, changed_at) VALUES (${userId}, ${plan}, ${changedAt})`;
      return true;
    });
    return changed ? this.billing(userId) : null;
  }

  async ipAllowlist(userId: string): Promise<string[]> {
    const [row] = await this.sql<{ entries: string[] }[]>`
      SELECT entries FROM ip_allowlists WHERE user_id = ${userId}`;
    return row ? row.entries : [];
  }

  async setIpAllowlist(userId: string, entries: readonly string[], now: string): Promise<void> {
    await this.sql`
      INSERT INTO ip_allowlists (user_id, entries, updated_at) VALUES (${userId}, ${this.sql.json([...entries])}, ${now})
      ON CONFLICT (user_id) DO UPDATE SET entries = excluded.entries, updated_at = excluded.updated_at`;
  }

  async ownedCluster(userId: string, clusterId: string | null): Promise<string | null> {
    const [row] =
      clusterId === null
        ? await this.sql<{ id: string }[]>`
            SELECT id FROM clusters WHERE owner_id = ${userId} ORDER BY created_at, id LIMIT 1`
        : await this.sql<{ id: string }[]>`
            SELECT id FROM clusters WHERE owner_id = ${userId} AND id = ${clusterId}`;
    return row?.id ?? null;
  }
}
