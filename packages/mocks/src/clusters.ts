import {
  type ClusterRole,
  type ClusterTier,
  checkClusterAccess,
  checkClusterAllowance,
  checkRegion,
  checkTierAllowed,
  clusterNotFound,
  defaultTier,
  type Plan,
  type PlanOfAccount,
  type Violation,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import { createIdGenerator } from './ids.js';
import { clusterOf } from './managed-keys.js';

/** The regions the mocks offer, as a server without `DATAPLATFORM_REGIONS`. */
const REGIONS = ['local'];

interface MockCluster {
  _id: string;
  ownerId: string;
  name: string;
  region: string;
  tier: ClusterTier;
  status: 'creating' | 'running' | 'paused' | 'deleting';
  createdAt: string;
  members: Map<string, ClusterRole>;
}

function reject(violation: Violation | null): void {
  if (violation) throw new ApiError(violation.code, violation.message, violation.details);
}

/**
 * The clusters of the mocks' users, with the server's rules from the contract (plan limits, regions, the role
 * table). Every user starts with their default cluster. The mocks keep one document store, so a cluster's state
 * does not reach the data routes, and a deletion completes at once.
 */
export class ClusterModel {
  readonly #clusters = new Map<string, MockCluster>();
  /** Default clusters deleted, so that they are not made again. */
  readonly #deleted = new Set<string>();
  readonly #id = createIdGenerator();

  clear(): void {
    this.#clusters.clear();
    this.#deleted.clear();
  }

  create(
    userId: string,
    account: PlanOfAccount,
    input: { name: string; region?: string; tier?: ClusterTier },
  ) {
    this.#ensureDefault(userId, account);
    const region = input.region ?? REGIONS[0]!;
    reject(checkRegion(region, REGIONS));
    const tier = input.tier ?? defaultTier(account);
    reject(checkTierAllowed(account, tier));
    const owned = [...this.#clusters.values()].filter((c) => c.ownerId === userId && c.status !== 'deleting');
    reject(checkClusterAllowance(account, owned.length));
    const cluster: MockCluster = {
      _id: `cls_${this.#id()}`,
      ownerId: userId,
      name: input.name,
      region,
      tier,
      status: 'creating',
      createdAt: new Date().toISOString(),
      members: new Map([[userId, 'owner']]),
    };
    this.#clusters.set(cluster._id, cluster);
    const answer = this.#public(cluster);
    // Ready at once, as on the server: the answer says `creating`, the next read `running`.
    cluster.status = 'running';
    return answer;
  }

  list(userId: string, account: PlanOfAccount, limit: number, skip: number) {
    this.#ensureDefault(userId, account);
    const mine = [...this.#clusters.values()].filter((c) => c.members.has(userId));
    return {
      data: mine.slice(skip, skip + limit).map((c) => this.#public(c)),
      total: mine.length,
      limit,
      skip,
    };
  }

  get(userId: string, account: PlanOfAccount, id: string) {
    return this.#public(this.#require(userId, account, id, 'read'));
  }

  update(userId: string, account: PlanOfAccount, id: string, change: { name?: string; tier?: ClusterTier }) {
    const cluster = this.#require(userId, account, id, 'manage');
    if (change.tier !== undefined) reject(checkTierAllowed(account, change.tier));
    if (change.name !== undefined) cluster.name = change.name;
    if (change.tier !== undefined) cluster.tier = change.tier;
    return this.#public(cluster);
  }

  move(userId: string, account: PlanOfAccount, id: string, to: 'paused' | 'running') {
    const cluster = this.#require(userId, account, id, 'manage');
    const from = to === 'paused' ? 'running' : 'paused';
    if (cluster.status !== to && cluster.status !== from)
      throw new ApiError('conflict', `Cluster "${id}" is ${cluster.status}; it cannot be made ${to}`);
    cluster.status = to;
    return this.#public(cluster);
  }

  /** Deletes the cluster at once and answers with its finished deletion job. */
  delete(userId: string, account: PlanOfAccount, id: string) {
    this.#require(userId, account, id, 'delete');
    this.#clusters.delete(id);
    this.#deleted.add(id);
    const now = new Date().toISOString();
    return {
      _id: `job_${this.#id()}`,
      kind: 'cluster.delete' as const,
      status: 'succeeded' as const,
      clusterId: id,
      input: { clusterId: id },
      counts: { rows: 0, inserted: 0, failed: 0 },
      bytes: 0,
      errors: [],
      failure: null,
      createdAt: now,
      startedAt: now,
      updatedAt: now,
      finishedAt: now,
    };
  }

  #require(userId: string, account: PlanOfAccount, id: string, action: 'read' | 'manage' | 'delete') {
    this.#ensureDefault(userId, account);
    const cluster = this.#clusters.get(id);
    const role = cluster?.members.get(userId);
    if (!cluster || !role) throw new ApiError('not_found', clusterNotFound(id).message, { id });
    reject(checkClusterAccess(role, action));
    return cluster;
  }

  /** The user's default cluster, made on first use, as the server makes it with the account. */
  #ensureDefault(userId: string, account: PlanOfAccount): void {
    const id = clusterOf(userId);
    if (this.#clusters.has(id) || this.#deleted.has(id)) return;
    this.#clusters.set(id, {
      _id: id,
      ownerId: userId,
      name: 'default',
      region: 'local',
      tier: account.enterprise ? 'enterprise' : 'free',
      status: 'running',
      createdAt: new Date(0).toISOString(),
      members: new Map([[userId, 'owner']]),
    });
  }

  #public(cluster: MockCluster) {
    const { ownerId: _owner, members: _members, ...record } = cluster;
    return { ...record, documentCount: 0, storageBytes: 0 };
  }
}

/** The plan of a billing account as the cluster rules read it. */
export function planOf(billing: { plan: string }): PlanOfAccount {
  return { plan: billing.plan as Plan, enterprise: false };
}
