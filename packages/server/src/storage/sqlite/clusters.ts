import type { ClusterRole } from '@dataplatform/contract';
import type Database from 'better-sqlite3';
import type {
  ClusterRow,
  ClusterStatus,
  ClusterStore,
  InvitationOutcome,
  MemberChange,
  MemberRow,
  Membership,
  NewCluster,
  NewInvitation,
  PurgeStep,
} from '../clusters.js';
import { progressValues } from '../job-rows.js';
import type { JobRecord } from '../jobs.js';

const COLUMNS = `c.id, c.owner_id AS ownerId, c.name, c.region, c.tier, c.status, c.created_at AS createdAt,
  COALESCE((SELECT SUM(doc_count) FROM collections WHERE cluster_id = c.id), 0) AS documentCount,
  COALESCE((SELECT SUM(length(CAST(d.data AS BLOB))) FROM documents d
            JOIN collections k ON k.id = d.collection_id WHERE k.cluster_id = c.id), 0) AS storageBytes`;

/** Clusters, their members and their deletion on SQLite. */
export class SqliteClusters implements ClusterStore {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO clusters (id, owner_id, name, region, tier, status, created_at)
         VALUES (@id, @ownerId, @name, @region, @tier, 'creating', @createdAt)`,
      ),
      insertOwner: db.prepare(
        `INSERT INTO cluster_members (cluster_id, user_id, role, created_at) VALUES (@id, @ownerId, 'owner', @createdAt)`,
      ),
      find: db.prepare<[string], ClusterRow>(
        `SELECT ${COLUMNS} FROM clusters c WHERE c.id = ? AND c.status <> 'deleted'`,
      ),
      listForMember: db.prepare<[string, number, number], ClusterRow>(
        `SELECT ${COLUMNS} FROM clusters c JOIN cluster_members m ON m.cluster_id = c.id
         WHERE m.user_id = ? AND c.status <> 'deleted' ORDER BY c.created_at, c.id LIMIT ? OFFSET ?`,
      ),
      countForMember: db.prepare<[string], { n: number }>(
        `SELECT COUNT(*) AS n FROM clusters c JOIN cluster_members m ON m.cluster_id = c.id
         WHERE m.user_id = ? AND c.status <> 'deleted'`,
      ),
      countOwned: db.prepare<[string], { n: number }>(
        "SELECT COUNT(*) AS n FROM clusters WHERE owner_id = ? AND status NOT IN ('deleting', 'deleted')",
      ),
      role: db.prepare<[string, string], { role: ClusterRole }>(
        'SELECT role FROM cluster_members WHERE cluster_id = ? AND user_id = ?',
      ),
      named: db.prepare<[string, string], Membership>(
        'SELECT cluster_id AS clusterId, role FROM cluster_members WHERE user_id = ? AND cluster_id = ?',
      ),
      first: db.prepare<[string, string], Membership>(
        `SELECT m.cluster_id AS clusterId, m.role FROM cluster_members m JOIN clusters c ON c.id = m.cluster_id
         WHERE m.user_id = ? ORDER BY c.owner_id = ? DESC, c.created_at, c.id LIMIT 1`,
      ),
      rename: db.prepare(
        'UPDATE clusters SET name = COALESCE(?, name), tier = COALESCE(?, tier) WHERE id = ?',
      ),
      deleting: db.prepare(
        "UPDATE clusters SET status = 'deleting' WHERE id = ? AND status NOT IN ('deleting', 'deleted')",
      ),
      deleteKeys: db.prepare('DELETE FROM api_keys WHERE cluster_id = ?'),
      insertJob: db.prepare(
        `INSERT INTO jobs (id, cluster_id, kind, status, input, counts, bytes, errors, failure, created_at, started_at, updated_at, finished_at)
         VALUES (@id, @clusterId, @kind, @status, @input, @counts, @bytes, @errors, @failure, @createdAt, @startedAt, @updatedAt, @finishedAt)`,
      ),
      someDocuments: db.prepare(
        `DELETE FROM documents WHERE rowid IN (
           SELECT d.rowid FROM documents d JOIN collections k ON k.id = d.collection_id WHERE k.cluster_id = ? LIMIT ?)`,
      ),
      members: db.prepare<[string], MemberRow>(
        `SELECT m.user_id AS userId, u.email, m.role FROM cluster_members m JOIN users u ON u.id = m.user_id
         WHERE m.cluster_id = ? ORDER BY m.role = 'owner' DESC, m.created_at, m.user_id`,
      ),
      owners: db.prepare<[string], { n: number }>(
        "SELECT COUNT(*) AS n FROM cluster_members WHERE cluster_id = ? AND role = 'owner'",
      ),
      setRole: db.prepare('UPDATE cluster_members SET role = ? WHERE cluster_id = ? AND user_id = ?'),
      removeMember: db.prepare('DELETE FROM cluster_members WHERE cluster_id = ? AND user_id = ?'),
      removeMemberKeys: db.prepare('DELETE FROM api_keys WHERE cluster_id = ? AND owner_id = ?'),
      memberByEmail: db.prepare<[string, string], { one: number }>(
        `SELECT 1 AS one FROM cluster_members m JOIN users u ON u.id = m.user_id
         WHERE m.cluster_id = ? AND u.email = ?`,
      ),
      insertInvitation: db.prepare(
        `INSERT INTO cluster_invitations (id, token_hash, cluster_id, email, role, invited_by, created_at, expires_at)
         VALUES (@id, @tokenHash, @clusterId, @email, @role, @invitedBy, @createdAt, @expiresAt)`,
      ),
      invitation: db.prepare<
        [string],
        { clusterId: string; email: string; role: ClusterRole; expiresAt: string; acceptedAt: string | null }
      >(
        `SELECT cluster_id AS clusterId, email, role, expires_at AS expiresAt, accepted_at AS acceptedAt
         FROM cluster_invitations WHERE token_hash = ?`,
      ),
      useInvitation: db.prepare('UPDATE cluster_invitations SET accepted_at = ? WHERE token_hash = ?'),
      insertMember: db.prepare(
        'INSERT INTO cluster_members (cluster_id, user_id, role, created_at) VALUES (?, ?, ?, ?)',
      ),
    };
  }

  async create(cluster: NewCluster): Promise<void> {
    this.db.transaction(() => {
      this.stmt.insert.run(cluster);
      this.stmt.insertOwner.run(cluster);
    })();
  }

  async find(clusterId: string): Promise<ClusterRow | null> {
    return this.stmt.find.get(clusterId) ?? null;
  }

  async listForMember(userId: string, page: { limit: number; skip: number }) {
    return {
      rows: this.stmt.listForMember.all(userId, page.limit, page.skip),
      total: this.stmt.countForMember.get(userId)!.n,
    };
  }

  async countOwned(userId: string): Promise<number> {
    return this.stmt.countOwned.get(userId)!.n;
  }

  async role(clusterId: string, userId: string): Promise<ClusterRole | null> {
    return this.stmt.role.get(clusterId, userId)?.role ?? null;
  }

  async membership(userId: string, clusterId: string | null): Promise<Membership | null> {
    const row =
      clusterId === null ? this.stmt.first.get(userId, userId) : this.stmt.named.get(userId, clusterId);
    return row ?? null;
  }

  async update(clusterId: string, change: { name?: string; tier?: string }): Promise<void> {
    this.stmt.rename.run(change.name ?? null, change.tier ?? null, clusterId);
  }

  async setStatus(clusterId: string, from: readonly ClusterStatus[], to: ClusterStatus): Promise<boolean> {
    const marks = from.map(() => '?').join(', ');
    const result = this.db
      .prepare(`UPDATE clusters SET status = ? WHERE id = ? AND status IN (${marks})`)
      .run(to, clusterId, ...from);
    return result.changes === 1;
  }

  async startDeletion(clusterId: string, job: JobRecord): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.stmt.deleting.run(clusterId).changes === 0) return false;
      this.stmt.deleteKeys.run(clusterId);
      this.stmt.insertJob.run({
        id: job.id,
        clusterId,
        kind: job.kind,
        createdAt: job.createdAt,
        ...progressValues(job),
      });
      return true;
    })();
  }

  async purgeStep(clusterId: string, deletionJobId: string, limit: number): Promise<PurgeStep> {
    const removed = this.stmt.someDocuments.run(clusterId, limit).changes;
    if (removed > 0) return { removed, done: false };
    const rest = this.db.transaction(() => {
      let n = 0;
      // The engine indexes of its collections: partial on rows that are gone, but still checked on every write.
      const indexes = this.db
        .prepare<[string], { engineName: string }>(
          'SELECT engine_name AS engineName FROM collection_indexes WHERE cluster_id = ?',
        )
        .all(clusterId);
      for (const { engineName } of indexes) this.db.exec(`DROP INDEX IF EXISTS "${engineName}"`);
      for (const statement of PURGE_REST)
        n += this.db.prepare(statement).run({ clusterId, deletionJobId }).changes;
      return n;
    })();
    return { removed: rest, done: true };
  }

  async members(clusterId: string): Promise<MemberRow[]> {
    return this.stmt.members.all(clusterId);
  }

  async setRole(clusterId: string, userId: string, role: ClusterRole): Promise<MemberChange> {
    return this.db.transaction((): MemberChange => {
      const current = this.stmt.role.get(clusterId, userId)?.role;
      if (!current) return 'not_member';
      if (current === 'owner' && role !== 'owner' && this.stmt.owners.get(clusterId)!.n === 1)
        return 'last_owner';
      this.stmt.setRole.run(role, clusterId, userId);
      return 'done';
    })();
  }

  async removeMember(clusterId: string, userId: string): Promise<MemberChange> {
    return this.db.transaction((): MemberChange => {
      const current = this.stmt.role.get(clusterId, userId)?.role;
      if (!current) return 'not_member';
      if (current === 'owner' && this.stmt.owners.get(clusterId)!.n === 1) return 'last_owner';
      this.stmt.removeMember.run(clusterId, userId);
      this.stmt.removeMemberKeys.run(clusterId, userId);
      return 'done';
    })();
  }

  async invite(invitation: NewInvitation): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.stmt.memberByEmail.get(invitation.clusterId, invitation.email)) return false;
      this.stmt.insertInvitation.run(invitation);
      return true;
    })();
  }

  async accept(
    tokenHash: string,
    user: { id: string; email: string },
    now: string,
  ): Promise<InvitationOutcome> {
    return this.db.transaction((): InvitationOutcome => {
      const found = this.stmt.invitation.get(tokenHash);
      if (!found) return { ok: false, reason: 'unknown' };
      if (found.acceptedAt !== null) return { ok: false, reason: 'used' };
      if (found.expiresAt <= now) return { ok: false, reason: 'expired' };
      if (found.email !== user.email) return { ok: false, reason: 'other_email' };
      if (this.stmt.role.get(found.clusterId, user.id)) return { ok: false, reason: 'member' };
      this.stmt.useInvitation.run(now, tokenHash);
      this.stmt.insertMember.run(found.clusterId, user.id, found.role, now);
      return {
        ok: true,
        clusterId: found.clusterId,
        member: { userId: user.id, email: user.email, role: found.role },
      };
    })();
  }
}

/** Everything of a cluster but its documents, its tombstone and its deletion job, children before parents. */
const PURGE_REST = [
  `DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d
     JOIN webhook_subscriptions s ON s.id = d.subscription_id WHERE s.cluster_id = @clusterId)`,
  `DELETE FROM webhook_deliveries WHERE subscription_id IN (SELECT id FROM webhook_subscriptions WHERE cluster_id = @clusterId)
     OR event_id IN (SELECT id FROM webhook_events WHERE cluster_id = @clusterId)`,
  'DELETE FROM webhook_events WHERE cluster_id = @clusterId',
  'DELETE FROM webhook_subscriptions WHERE cluster_id = @clusterId',
  'DELETE FROM collections WHERE cluster_id = @clusterId',
  'DELETE FROM collection_indexes WHERE cluster_id = @clusterId',
  'DELETE FROM collection_validators WHERE cluster_id = @clusterId',
  // A function's invocations go with it (ON DELETE CASCADE).
  'DELETE FROM functions WHERE cluster_id = @clusterId',
  // A trigger's runs go with it (ON DELETE CASCADE).
  'DELETE FROM triggers WHERE cluster_id = @clusterId',
  'DELETE FROM backup_schedules WHERE cluster_id = @clusterId',
  `DELETE FROM intelligence_dataset_rows WHERE dataset_id IN
     (SELECT id FROM intelligence_datasets WHERE cluster_id = @clusterId)`,
  'DELETE FROM intelligence_datasets WHERE cluster_id = @clusterId',
  'DELETE FROM intelligence_models WHERE cluster_id = @clusterId',
  'DELETE FROM idempotency_keys WHERE cluster_id = @clusterId',
  'DELETE FROM api_keys WHERE cluster_id = @clusterId',
  'DELETE FROM jobs WHERE cluster_id = @clusterId AND id <> @deletionJobId',
  'DELETE FROM cluster_invitations WHERE cluster_id = @clusterId',
  'DELETE FROM cluster_members WHERE cluster_id = @clusterId',
  "UPDATE clusters SET status = 'deleted' WHERE id = @clusterId",
];
