import type { ClusterRole } from '@dataplatform/contract';
import type { Sql } from 'postgres';
import type {
  ActivityRecord,
  NewSession,
  PasswordResetInput,
  SessionForData,
  SessionRecord,
  SessionStore,
} from '../sessions.js';

interface DataRow {
  id: string;
  userId: string;
  expiresAt: string;
  revokedAt: string | null;
  clusterId: string | null;
  clusterStatus: string | null;
  clusterRole: ClusterRole | null;
  billingStatus: string | null;
  plan: string | null;
  trialExpiresAt: string | null;
  enterprise: boolean | null;
}

/** Sessions, password-reset tokens and the activity log on PostgreSQL. */
export class PostgresSessions implements SessionStore {
  constructor(private readonly sql: Sql) {}

  async create(s: NewSession): Promise<void> {
    await this.sql`INSERT INTO sessions (id, user_id, created_at, expires_at, ip, user_agent)
                   VALUES (${s.id}, ${s.userId}, ${s.createdAt}, ${s.expiresAt}, ${s.ip}, ${s.userAgent})`;
  }

  async find(sessionId: string): Promise<SessionRecord | null> {
    const [row] = await this.sql<SessionRecord[]>`
      SELECT id, user_id AS "userId", expires_at AS "expiresAt", revoked_at AS "revokedAt"
      FROM sessions WHERE id = ${sessionId}`;
    return row ?? null;
  }

  async findForData(sessionId: string, clusterId: string | null): Promise<SessionForData | null> {
    // The cluster named by the request when the user is a member, else (none named) the default cluster of the
    // user's settings, else the first the user created, else the first they joined.
    const [row] = await this.sql<DataRow[]>`
      SELECT s.id, s.user_id AS "userId", s.expires_at AS "expiresAt", s.revoked_at AS "revokedAt",
             c.id AS "clusterId", c.status AS "clusterStatus", m.role AS "clusterRole",
             payer.status AS "billingStatus",
             b.plan, b.trial_expires_at AS "trialExpiresAt", b.enterprise
      FROM sessions s
      LEFT JOIN billing_accounts b ON b.user_id = s.user_id
      LEFT JOIN cluster_members m ON m.user_id = s.user_id AND m.cluster_id = (
        SELECT m2.cluster_id FROM cluster_members m2 JOIN clusters c2 ON c2.id = m2.cluster_id
        WHERE m2.user_id = s.user_id AND (${clusterId}::text IS NULL OR m2.cluster_id = ${clusterId})
        ORDER BY COALESCE(m2.cluster_id = (
              SELECT us.default_cluster_id FROM user_settings us WHERE us.user_id = s.user_id), false) DESC,
            c2.owner_id = s.user_id DESC, c2.created_at, c2.id LIMIT 1)
      LEFT JOIN clusters c ON c.id = m.cluster_id
      LEFT JOIN billing_accounts payer ON payer.user_id = c.owner_id
      WHERE s.id = ${sessionId}`;
    if (!row) return null;
    return {
      id: row.id,
      userId: row.userId,
      expiresAt: row.expiresAt,
      revokedAt: row.revokedAt,
      cluster: row.clusterId
        ? {
            id: row.clusterId,
            status: row.clusterStatus!,
            role: row.clusterRole!,
            billingStatus: row.billingStatus ?? 'active',
          }
        : null,
      billing:
        row.plan === null
          ? null
          : { plan: row.plan, trialExpiresAt: row.trialExpiresAt, enterprise: row.enterprise === true },
    };
  }

  async revoke(sessionId: string, userId: string, now: string): Promise<boolean> {
    const result = await this.sql`UPDATE sessions SET revoked_at = ${now}
      WHERE id = ${sessionId} AND user_id = ${userId} AND revoked_at IS NULL`;
    return result.count === 1;
  }

  async revokeAll(userId: string, now: string): Promise<number> {
    const result = await this
      .sql`UPDATE sessions SET revoked_at = ${now} WHERE user_id = ${userId} AND revoked_at IS NULL`;
    return result.count;
  }

  async createReset(r: { tokenHash: string; userId: string; createdAt: string; expiresAt: string }) {
    await this.sql`INSERT INTO password_resets (token_hash, user_id, created_at, expires_at)
                   VALUES (${r.tokenHash}, ${r.userId}, ${r.createdAt}, ${r.expiresAt})`;
  }

  async completeReset(input: PasswordResetInput): Promise<{ userId: string; sessionsEnded: number } | null> {
    return this.sql.begin(async (tx) => {
      // The row lock of the UPDATE makes a second use of the same token wait, then find it used.
      const [used] = await tx<{ userId: string }[]>`
        UPDATE password_resets SET used_at = ${input.now}
        WHERE token_hash = ${input.tokenHash} AND used_at IS NULL AND expires_at > ${input.now}
        RETURNING user_id AS "userId"`;
      if (!used) return null;
      await tx`UPDATE users SET password_hash = ${input.passwordHash} WHERE id = ${used.userId}`;
      const ended = await tx`UPDATE sessions SET revoked_at = ${input.now}
        WHERE user_id = ${used.userId} AND revoked_at IS NULL`;
      await tx`DELETE FROM ip_allowlists WHERE user_id = ${used.userId}`;
      await insertActivity(tx as unknown as Sql, { ...input.activity, userId: used.userId });
      return { userId: used.userId, sessionsEnded: ended.count };
    });
  }

  async addActivity(entry: ActivityRecord): Promise<void> {
    await insertActivity(this.sql, entry);
  }

  async listActivity(userId: string, page: { limit: number; skip: number }) {
    const [rows, [count]] = await Promise.all([
      this.sql<ActivityRecord[]>`
        SELECT id, user_id AS "userId", action, created_at AS "createdAt", ip, user_agent AS "userAgent", details
        FROM activity_log WHERE user_id = ${userId}
        ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.skip}`,
      this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM activity_log WHERE user_id = ${userId}`,
    ]);
    return { rows: [...rows], total: count!.n };
  }

  async hasSignedInFrom(userId: string, ip: string): Promise<boolean> {
    const rows = await this.sql`SELECT 1 FROM activity_log
      WHERE user_id = ${userId} AND ip = ${ip} AND action IN ('signup', 'signin') LIMIT 1`;
    return rows.length > 0;
  }

  async purgeEnded(before: string): Promise<number> {
    const sessions = await this
      .sql`DELETE FROM sessions WHERE expires_at < ${before} OR revoked_at < ${before}`;
    const resets = await this.sql`DELETE FROM password_resets WHERE expires_at < ${before}`;
    return sessions.count + resets.count;
  }
}

async function insertActivity(sql: Sql, e: ActivityRecord): Promise<void> {
  await sql`INSERT INTO activity_log (id, user_id, action, created_at, ip, user_agent, details)
            VALUES (${e.id}, ${e.userId}, ${e.action}, ${e.createdAt}, ${e.ip}, ${e.userAgent}, ${sql.json(e.details as never)})`;
}
