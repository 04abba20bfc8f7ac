import type { ClusterRole } from '@dataplatform/contract';
import type Database from 'better-sqlite3';
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
  enterprise: number | null;
}

type ActivityRow = Omit<ActivityRecord, 'details'> & { details: string };

const SESSION_COLUMNS = 'id, user_id AS userId, expires_at AS expiresAt, revoked_at AS revokedAt';

/** Sessions, password-reset tokens and the activity log on SQLite. */
export class SqliteSessions implements SessionStore {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        'INSERT INTO sessions (id, user_id, created_at, expires_at, ip, user_agent) VALUES (@id, @userId, @createdAt, @expiresAt, @ip, @userAgent)',
      ),
      find: db.prepare<[string], SessionRecord>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`),
      // The cluster named by the request when the user owns it, else (none named) the user's first cluster.
      findForData: db.prepare<[{ clusterId: string | null; sessionId: string }], DataRow>(`
        SELECT s.id, s.user_id AS userId, s.expires_at AS expiresAt, s.revoked_at AS revokedAt,
               c.id AS clusterId, c.status AS clusterStatus, m.role AS clusterRole,
               payer.status AS billingStatus,
               b.plan, b.trial_expires_at AS trialExpiresAt, b.enterprise
        FROM sessions s
        LEFT JOIN billing_accounts b ON b.user_id = s.user_id
        LEFT JOIN cluster_members m ON m.user_id = s.user_id AND m.cluster_id = (
          SELECT m2.cluster_id FROM cluster_members m2 JOIN clusters c2 ON c2.id = m2.cluster_id
          WHERE m2.user_id = s.user_id AND (@clusterId IS NULL OR m2.cluster_id = @clusterId)
          ORDER BY COALESCE(m2.cluster_id = (
              SELECT us.default_cluster_id FROM user_settings us WHERE us.user_id = s.user_id), false) DESC,
            c2.owner_id = s.user_id DESC, c2.created_at, c2.id LIMIT 1)
        LEFT JOIN clusters c ON c.id = m.cluster_id
        LEFT JOIN billing_accounts payer ON payer.user_id = c.owner_id
        WHERE s.id = @sessionId`),
      revoke: db.prepare(
        'UPDATE sessions SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL',
      ),
      revokeAll: db.prepare('UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL'),
      insertReset: db.prepare(
        'INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) VALUES (@tokenHash, @userId, @createdAt, @expiresAt)',
      ),
      useReset: db.prepare<[{ now: string; tokenHash: string }], { userId: string }>(`
        UPDATE password_resets SET used_at = @now
        WHERE token_hash = @tokenHash AND used_at IS NULL AND expires_at > @now
        RETURNING user_id AS userId`),
      setPassword: db.prepare('UPDATE users SET password_hash = ? WHERE id = ?'),
      clearAllowlist: db.prepare('DELETE FROM ip_allowlists WHERE user_id = ?'),
      insertActivity: db.prepare(
        'INSERT INTO activity_log (id, user_id, action, created_at, ip, user_agent, details) VALUES (@id, @userId, @action, @createdAt, @ip, @userAgent, @details)',
      ),
      activityPage: db.prepare<[string, number, number], ActivityRow>(`
        SELECT id, user_id AS userId, action, created_at AS createdAt, ip, user_agent AS userAgent, details
        FROM activity_log WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`),
      activityCount: db.prepare<[string], { n: number }>(
        'SELECT COUNT(*) AS n FROM activity_log WHERE user_id = ?',
      ),
      purgeSessions: db.prepare('DELETE FROM sessions WHERE expires_at < @before OR revoked_at < @before'),
      purgeResets: db.prepare('DELETE FROM password_resets WHERE expires_at < @before'),
      signedInFrom: db.prepare<[string, string], { one: number }>(
        "SELECT 1 AS one FROM activity_log WHERE user_id = ? AND ip = ? AND action IN ('signup', 'signin') LIMIT 1",
      ),
    };
  }

  async create(session: NewSession): Promise<void> {
    this.stmt.insert.run(session);
  }

  async find(sessionId: string): Promise<SessionRecord | null> {
    return this.stmt.find.get(sessionId) ?? null;
  }

  async findForData(sessionId: string, clusterId: string | null): Promise<SessionForData | null> {
    const row = this.stmt.findForData.get({ clusterId, sessionId });
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
          : { plan: row.plan, trialExpiresAt: row.trialExpiresAt, enterprise: row.enterprise === 1 },
    };
  }

  async revoke(sessionId: string, userId: string, now: string): Promise<boolean> {
    return this.stmt.revoke.run(now, sessionId, userId).changes === 1;
  }

  async revokeAll(userId: string, now: string): Promise<number> {
    return this.stmt.revokeAll.run(now, userId).changes;
  }

  async createReset(reset: {
    tokenHash: string;
    userId: string;
    createdAt: string;
    expiresAt: string;
  }): Promise<void> {
    this.stmt.insertReset.run(reset);
  }

  async completeReset(input: PasswordResetInput): Promise<{ userId: string; sessionsEnded: number } | null> {
    return this.db.transaction(() => {
      const used = this.stmt.useReset.get({ now: input.now, tokenHash: input.tokenHash });
      if (!used) return null;
      this.stmt.setPassword.run(input.passwordHash, used.userId);
      const sessionsEnded = this.stmt.revokeAll.run(input.now, used.userId).changes;
      this.stmt.clearAllowlist.run(used.userId);
      this.insertActivity({ ...input.activity, userId: used.userId });
      return { userId: used.userId, sessionsEnded };
    })();
  }

  async addActivity(entry: ActivityRecord): Promise<void> {
    this.insertActivity(entry);
  }

  async listActivity(userId: string, page: { limit: number; skip: number }) {
    const rows = this.stmt.activityPage
      .all(userId, page.limit, page.skip)
      .map((row) => ({ ...row, details: JSON.parse(row.details) as Record<string, unknown> }));
    return { rows, total: this.stmt.activityCount.get(userId)!.n };
  }

  async hasSignedInFrom(userId: string, ip: string): Promise<boolean> {
    return this.stmt.signedInFrom.get(userId, ip) !== undefined;
  }

  async purgeEnded(before: string): Promise<number> {
    return this.db.transaction(
      () => this.stmt.purgeSessions.run({ before }).changes + this.stmt.purgeResets.run({ before }).changes,
    )();
  }

  private insertActivity(entry: ActivityRecord): void {
    this.stmt.insertActivity.run({ ...entry, details: JSON.stringify(entry.details) });
  }
}
