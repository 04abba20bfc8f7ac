import type { ClusterRole } from '@dataplatform/contract';
import type { Sql } from 'postgres';
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
import { indexDdlOf } from './index-ddl.js';

/** Clusters, their members and their deletion on PostgreSQL. */
export class PostgresClusters implements ClusterStore {
  constructor(private readonly sql: Sql) {}

  private columns() {
    return this
      .sql`c.id, c.owner_id AS "ownerId", c.name, c.region, c.tier, c.status, c.created_at AS "createdAt",
      COALESCE((SELECT SUM(n) FROM collection_counters cc JOIN collections k ON k.id = cc.collection_id
                WHERE k.cluster_id = c.id), 0)::float8 AS "documentCount",
      COALESCE((SELECT SUM(octet_length(d.data::text)) FROM documents d JOIN collections k ON k.id = d.collection_id
                WHERE k.cluster_id = c.id), 0)::float8 AS "storageBytes"`;
  }

  async create(cluster: NewCluster): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`INSERT INTO clusters (id, owner_id, name, region, tier, status, created_at)
        VALUES (${cluster.id}, ${cluster.ownerId}, ${cluster.name}, ${cluster.region}, ${cluster.tier}, 'creating', ${cluster.createdAt})`;
      await tx`INSERT INTO cluster_members (cluster_id, user_id, role, created_at)
        VALUES (${cluster.id}, ${cluster.ownerId}, 'owner', ${cluster.createdAt})`;
    });
  }

  async find(clusterId: string): Promise<ClusterRow | null> {
    const [row] = await this.sql<ClusterRow[]>`
      SELECT ${this.columns()} FROM clusters c WHERE c.id = ${clusterId} AND c.status <> 'deleted'`;
    return row ?? null;
  }

  async listForMember(userId: string, page: { limit: number; skip: number }) {
    const [rows, [count]] = await Promise.all([
      this.sql<ClusterRow[]>`
        SELECT ${this.columns()} FROM clusters c JOIN cluster_members m ON m.cluster_id = c.id
        WHERE m.user_id = ${userId} AND c.status <> 'deleted' ORDER BY c.created_at, c.id
        LIMIT ${page.limit} OFFSET ${page.skip}`,
      this.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM clusters c JOIN cluster_members m ON m.cluster_id = c.id
        WHERE m.user_id = ${userId} AND c.status <> 'deleted'`,
    ]);
    return { rows, total: count!.n };
  }

  async countOwned(userId: string): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM clusters WHERE owner_id = ${userId} AND status NOT IN ('deleting', 'deleted')`;
    return row!.n;
  }

  async role(clusterId: string, userId: string): Promise<ClusterRole | null> {
    const [row] = await this.sql<{ role: ClusterRole }[]>`
      SELECT role FROM cluster_members WHERE cluster_id = ${clusterId} AND user_id = ${userId}`;
    return row?.role ?? null;
  }

  async membership(userId: string, clusterId: string | null): Promise<Membership | null> {
    const [row] =
      clusterId === null
        ? await this.sql<Membership[]>`
            SELECT m.cluster_id AS "clusterId", m.role FROM cluster_members m JOIN clusters c ON c.id = m.cluster_id
            WHERE m.user_id = ${userId} ORDER BY c.owner_id = ${userId} DESC, c.created_at, c.id LIMIT 1`
        : await this.sql<Membership[]>`
            SELECT cluster_id AS "clusterId", role FROM cluster_members
            WHERE user_id = ${userId} AND cluster_id = ${clusterId}`;
    return row ?? null;
  }

  async update(clusterId: string, change: { name?: string; tier?: string }): Promise<void> {
    await this.sql`UPDATE clusters SET name = COALESCE(${change.name ?? null}, name),
      tier = COALESCE(${change.tier ?? null}, tier) WHERE id = ${clusterId}`;
  }

  async setStatus(clusterId: string, from: readonly ClusterStatus[], to: ClusterStatus): Promise<boolean> {
    const result = await this.sql`
      UPDATE clusters SET status = ${to} WHERE id = ${clusterId} AND status IN ${this.sql([...from])}`;
    return result.count === 1;
  }

  async startDeletion(clusterId: string, job: JobRecord): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      const started = await tx`UPDATE clusters SET status = 'deleting'
        WHERE id = ${clusterId} AND status NOT IN ('deleting', 'deleted')`;
      if (started.count === 0) return false;
      await tx`DELETE FROM api_keys WHERE cluster_id = ${clusterId}`;
      const v = progressValues(job);
      await tx`INSERT INTO jobs (id, cluster_id, kind, status, input, counts, bytes, errors, failure, created_at, started_at, updated_at, finished_at)
        VALUES (${job.id}, ${clusterId}, ${job.kind}, ${v.status}, ${v.input}, ${v.counts}, ${v.bytes}, ${v.errors},
                ${v.failure}, ${job.createdAt}, ${v.startedAt}, ${v.updatedAt}, ${v.finishedAt})`;
      return true;
    });
  }

  async purgeStep(clusterId: string, deletionJobId: string, limit: number): Promise<PurgeStep> {
    const some = await this.sql`
      DELETE FROM documents d USING (
        SELECT d2.collection_id, d2.id FROM documents d2 JOIN collections k ON k.id = d2.collection_id
        WHERE k.cluster_id = ${clusterId} LIMIT ${limit}) doomed
      WHERE d.collection_id = doomed.collection_id AND d.id = doomed.id`;
    if (some.count > 0) return { removed: some.count, done: false };
    // The engine indexes of its collections (partial on rows that are gone, but still checked on every write),
    // concurrently and so outside the transaction; a purge cut short here drops the rest next time.
    const indexes = await this.sql<{ engineName: string }[]>`
      SELECT engine_name AS "engineName" FROM collection_indexes WHERE cluster_id = ${clusterId}`;
    for (const { engineName } of indexes) await indexDdlOf(this.sql).drop(engineName);
    const removed = await this.sql.begin(async (tx) => {
      const counts = [
        await tx`DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d
          JOIN webhook_subscriptions s ON s.id = d.subscription_id WHERE s.cluster_id = ${clusterId})`,
        await tx`DELETE FROM webhook_deliveries WHERE subscription_id IN
          (SELECT id FROM webhook_subscriptions WHERE cluster_id = ${clusterId})
          OR event_id IN (SELECT id FROM webhook_events WHERE cluster_id = ${clusterId})`,
        await tx`DELETE FROM webhook_events WHERE cluster_id = ${clusterId}`,
        await tx`DELETE FROM webhook_subscriptions WHERE cluster_id = ${clusterId}`,
        await tx`DELETE FROM webhook_presence_leases WHERE cluster_id = ${clusterId}`,
        await tx`DELETE FROM collection_counters WHERE collection_id IN
          (SELECT id FROM collections WHERE cluster_id = ${clusterId})`,
        await tx`DELETE FROM collections WHERE cluster_id = ${clusterId}`,
        await tx`DELETE FROM collection_indexes WHERE cluster_id = ${clusterId}`,
        await tx`DELETE FROM collection_validators WHERE cluster_id = ${clusterId}`,
        // A function's invocations go with it (ON DELETE CASCADE).
        await tx`DELETE FROM functions WHERE cluster_id = ${clusterId}`,
        // A trigger's runs go with it (ON DELETE CASCADE).
        await tx`DELETE FROM triggers WHERE cluster_id = ${clusterId}`,
        await tx`DELETE FROM backup_schedules WHERE cluster_id = ${clusterId}`,
        await tx`DELETE FROM intelligence_dataset_rows WHERE dataset_id IN
          (SELECT id FROM intelligence_datasets WHERE cluster_id = ${clusterId})`,
        await tx`DELETE FROM intelligence_datasets WHERE cluster_id = ${clusterId}`,
        await tx`DELETE FROM intelligence_models WHERE cluster_id = ${clusterId}`,
        await tx`DELETE FROM idempotency_keys WHERE cluster_id = ${clusterId}`,
        await tx`DELETE FROM api_keys WHERE cluster_id = ${clusterId}`,
        await tx`DELETE FROM jobs WHERE cluster_id = ${clusterId} AND id <> ${deletionJobId}`,
        await tx`DELETE FROM cluster_invitations WHERE cluster_id = ${clusterId}`,
        await tx`DELETE FROM cluster_members WHERE cluster_id = ${clusterId}`,
        await tx`UPDATE clusters SET status = 'deleted' WHERE id = ${clusterId}`,
      ];
      return counts.reduce((sum, result) => sum + result.count, 0);
    });
    return { removed, done: true };
  }

  async members(clusterId: string): Promise<MemberRow[]> {
    return this.sql<MemberRow[]>`
      SELECT m.user_id AS "userId", u.email, m.role FROM cluster_members m JOIN users u ON u.id = m.user_id
      WHERE m.cluster_id = ${clusterId} ORDER BY m.role = 'owner' DESC, m.created_at, m.user_id`;
  }

  /**
   * Runs `change` on a member with the owners of the cluster locked, so that two changes at once cannot both
   * take away an owner and leave none.
   */
  private changeMember(
    clusterId: string,
    userId: string,
    leavesOwnership: (current: ClusterRole) => boolean,
    change: (tx: Sql) => Promise<unknown>,
  ): Promise<MemberChange> {
    return this.sql.begin(async (tx): Promise<MemberChange> => {
      const members = await tx<{ userId: string; role: ClusterRole }[]>`
        SELECT user_id AS "userId", role FROM cluster_members WHERE cluster_id = ${clusterId}
        AND (user_id = ${userId} OR role = 'owner') FOR UPDATE`;
      const current = members.find((m) => m.userId === userId)?.role;
      if (!current) return 'not_member';
      const owners = members.filter((m) => m.role === 'owner').length;
      if (current === 'owner' && leavesOwnership(current) && owners === 1) return 'last_owner';
      await change(tx as unknown as Sql);
      return 'done';
    });
  }

  setRole(clusterId: string, userId: string, role: ClusterRole): Promise<MemberChange> {
    return this.changeMember(
      clusterId,
      userId,
      () => role !== 'owner',
      (tx) =>
        tx`UPDATE cluster_members SET role = ${role} WHERE cluster_id = ${clusterId} AND user_id = ${userId}`,
    );
  }

  removeMember(clusterId: string, userId: string): Promise<MemberChange> {
    return this.changeMember(
      clusterId,
      userId,
      () => true,
      async (tx) => {
        await tx`DELETE FROM cluster_members WHERE cluster_id = ${clusterId} AND user_id = ${userId}`;
        await tx`DELETE FROM api_keys WHERE cluster_id = ${clusterId} AND owner_id = ${userId}`;
      },
    );
  }

  async invite(invitation: NewInvitation): Promise<boolean> {
    const rows = await this.sql`
      INSERT INTO cluster_invitations (id, token_hash, cluster_id, email, role, invited_by, created_at, expires_at)
      SELECT ${invitation.id}, ${invitation.tokenHash}, ${invitation.clusterId}, ${invitation.email}, ${invitation.role},
             ${invitation.invitedBy}, ${invitation.createdAt}, ${invitation.expiresAt}
      WHERE NOT EXISTS (SELECT 1 FROM cluster_members m JOIN users u ON u.id = m.user_id
                        WHERE m.cluster_id = ${invitation.clusterId} AND u.email = ${invitation.email})`;
    return rows.count === 1;
  }

  async accept(
    tokenHash: string,
    user: { id: string; email: string },
    now: string,
  ): Promise<InvitationOutcome> {
    return this.sql.begin(async (tx): Promise<InvitationOutcome> => {
      const [found] = await tx<
        {
          clusterId: string;
          email: string;
          role: ClusterRole;
          expiresAt: string;
          acceptedAt: string | null;
        }[]
      >`SELECT cluster_id AS "clusterId", email, role, expires_at AS "expiresAt", accepted_at AS "acceptedAt"
        FROM cluster_invitations WHERE token_hash = ${tokenHash} FOR UPDATE`;
      if (!found) return { ok: false, reason: 'unknown' };
      if (found.acceptedAt !== null) return { ok: false, reason: 'used' };
      if (found.expiresAt <= now) return { ok: false, reason: 'expired' };
      if (found.email !== user.email) return { ok: false, reason: 'other_email' };
      const joined = await tx`INSERT INTO cluster_members (cluster_id, user_id, role, created_at)
        VALUES (${found.clusterId}, ${user.id}, ${found.role}, ${now}) ON CONFLICT DO NOTHING`;
      if (joined.count === 0) return { ok: false, reason: 'member' };
      await tx`UPDATE cluster_invitations SET accepted_at = ${now} WHERE token_hash = ${tokenHash}`;
      return {
        ok: true,
        clusterId: found.clusterId,
        member: { userId: user.id, email: user.email, role: found.role },
      };
    });
  }
}
