import {
  type ClusterTier,
  checkClusterAllowance,
  checkRegion,
  checkTierAllowed,
  clusterNotFound,
  defaultTier,
  type Plan,
  type PlanOfAccount,
} from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import { rejectViolation } from '../http/validate.js';
import { ulid } from '../ids.js';
import type { ClusterRow, ClusterStatus } from '../storage/clusters.js';
import type { JobRecord } from '../storage/jobs.js';
import type { Storage } from '../storage/types.js';
import { ClusterAccess } from './cluster-access.js';
import type { ClusterDeletions } from './cluster-deletions.js';
import { publicJob } from './jobs.js';

/** A cluster as the API shows it. */
export function publicCluster(row: ClusterRow) {
  return {
    _id: row.id,
    name: row.name,
    region: row.region,
    tier: row.tier as ClusterTier,
    status: row.status as Exclude<ClusterStatus, 'deleted'>,
    createdAt: row.createdAt,
    documentCount: Number(row.documentCount),
    storageBytes: Number(row.storageBytes),
  };
}

/**
 * The life cycle of clusters for signed-in users: create within the plan's limits, list, get, change, pause,
 * resume and delete (by a job, `cluster-deletions.ts`). Every call on one cluster goes through `ClusterAccess`.
 */
export class ClusterService {
  private readonly access: ClusterAccess;

  constructor(
    private readonly storage: Storage,
    private readonly regions: readonly string[],
    private readonly deletions: ClusterDeletions,
  ) {
    this.access = new ClusterAccess(storage);
  }

  async create(userId: string, input: { name: string; region?: string; tier?: ClusterTier }) {
    const account = await this.planOf(userId);
    const region = input.region ?? this.regions[0]!;
    rejectViolation(checkRegion(region, this.regions));
    const tier = input.tier ?? defaultTier(account);
    rejectViolation(checkTierAllowed(account, tier));
    rejectViolation(checkClusterAllowance(account, await this.storage.clusters.countOwned(userId)));
    const id = `cls_${ulid()}`;
    const createdAt = new Date().toISOString();
    await this.storage.clusters.create({ id, ownerId: userId, name: input.name, region, tier, createdAt });
    const created = publicCluster((await this.storage.clusters.find(id))!);
    // Its storage is the shared database's: ready as soon as the row is, so the cluster runs from here on. The
    // answer still says `creating`, as the API promises; the next read says `running`.
    await this.storage.clusters.setStatus(id, ['creating'], 'running');
    return created;
  }

  async list(userId: string, limit: number, skip: number) {
    const { rows, total } = await this.storage.clusters.listForMember(userId, { limit, skip });
    return { data: rows.map(publicCluster), total, limit, skip };
  }

  async get(userId: string, clusterId: string) {
    await this.access.require(userId, clusterId, 'read');
    return publicCluster(await this.found(clusterId));
  }

  async update(userId: string, clusterId: string, change: { name?: string; tier?: ClusterTier }) {
    await this.access.require(userId, clusterId, 'manage');
    const cluster = await this.found(clusterId);
    if (cluster.status === 'deleting')
      throw new ApiError('conflict', `Cluster "${clusterId}" is being deleted`);
    // The plan that limits the tier is that of the user who created the cluster (the one it counts against).
    if (change.tier !== undefined)
      rejectViolation(checkTierAllowed(await this.planOf(cluster.ownerId), change.tier));
    await this.storage.clusters.update(clusterId, change);
    return publicCluster(await this.found(clusterId));
  }

  /** Pauses a running cluster; pausing a paused one changes nothing. */
  pause(userId: string, clusterId: string) {
    return this.move(userId, clusterId, ['running'], 'paused');
  }

  /** Resumes a paused cluster; resuming a running one changes nothing. */
  resume(userId: string, clusterId: string) {
    return this.move(userId, clusterId, ['paused'], 'running');
  }

  /** Starts the deletion: `deleting`, keys gone at once, and the job that purges the rest (202). */
  async delete(userId: string, clusterId: string) {
    await this.access.require(userId, clusterId, 'delete');
    const now = new Date().toISOString();
    const job: JobRecord = {
      id: `job_${ulid()}`,
      kind: 'cluster.delete',
      status: 'running',
      clusterId,
      input: { clusterId },
      counts: { rows: 0, inserted: 0, failed: 0 },
      bytes: 0,
      errors: [],
      failure: null,
      createdAt: now,
      startedAt: now,
      updatedAt: now,
      finishedAt: null,
    };
    if (!(await this.storage.clusters.startDeletion(clusterId, job)))
      throw new ApiError('conflict', `Cluster "${clusterId}" is already being deleted`);
    void this.deletions.start(job);
    return publicJob(job);
  }

  private async move(userId: string, clusterId: string, from: ClusterStatus[], to: ClusterStatus) {
    await this.access.require(userId, clusterId, 'manage');
    const cluster = await this.found(clusterId);
    if (cluster.status !== to && !(await this.storage.clusters.setStatus(clusterId, from, to)))
      throw new ApiError('conflict', `Cluster "${clusterId}" is ${cluster.status}; it cannot be made ${to}`);
    return publicCluster(await this.found(clusterId));
  }

  private async found(clusterId: string): Promise<ClusterRow> {
    const cluster = await this.storage.clusters.find(clusterId);
    if (!cluster) rejectViolation(clusterNotFound(clusterId));
    return cluster!;
  }

  private async planOf(userId: string): Promise<PlanOfAccount> {
    const billing = await this.storage.accounts.billing(userId);
    return { plan: (billing?.plan ?? 'free') as Plan, enterprise: billing?.enterprise ?? false };
  }
}
