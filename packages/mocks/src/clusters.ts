import {
  type ClusterAction,
  type ClusterRole,
  type ClusterTier,
  checkClusterAccess,
  checkClusterAllowance,
  checkRegion,
  checkTierAllowed,
  clusterNotFound,
  defaultTier,
  type Invitation,
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
  readonly #invitations = new Map<string, Invitation & { used: boolean }>();
  /** Default clusters deleted, so that they are not made again. */
  readonly #deleted = new Set<string>();
  readonly #id = createIdGenerator();

  clear(): void {
    this.#clusters.clear();
    this.#deleted.clear();
    this.#invitations.clear();
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
      progress: { done: 0, total: 0 },
      result: null,
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

  members(userId: string, account: PlanOfAccount, id: string, emailOf: (userId: string) => string) {
    const cluster = this.#require(userId, account, id, 'read');
    const data = [...cluster.members].map(([member, role]) => ({
      userId: member,
      email: emailOf(member),
      role,
    }));
    data.sort((a, b) => Number(b.role === 'owner') - Number(a.role === 'owner'));
    return { data };
  }

  /** Stores an invitation and returns it with its token (which the caller mails). */
  invite(
    userId: string,
    account: PlanOfAccount,
    id: string,
    input: { email: string; role: ClusterRole },
    emailOf: (userId: string) => string,
  ) {
    const cluster = this.#require(userId, account, id, 'members');
    const inviter = cluster.members.get(userId)!;
    if (input.role === 'owner' && inviter !== 'owner')
      throw new ApiError('forbidden', 'Only an owner may invite an owner', {
        role: inviter,
        action: 'members',
      });
    const email = input.email.trim().toLowerCase();
    if ([...cluster.members.keys()].some((member) => emailOf(member) === email))
      throw new ApiError('conflict', `${email} is already a member of this cluster`);
    const token = `inv_${this.#id()}${this.#id()}`;
    const now = Date.now();
    const invitation = {
      _id: `inv_${this.#id()}`,
      clusterId: id,
      email,
      role: input.role,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + 7 * 86_400_000).toISOString(),
    };
    this.#invitations.set(token, { ...invitation, used: false });
    return { invitation, token, clusterName: cluster.name };
  }

  accept(user: { id: string; email: string }, token: string) {
    const found = this.#invitations.get(token);
    const refuse = (message: string) =>
      new ApiError('validation_error', message, { in: 'body', field: 'token' });
    if (!found) throw refuse('The invitation token is unknown');
    if (found.used) throw refuse('The invitation was already used');
    if (Date.parse(found.expiresAt) <= Date.now()) throw refuse('The invitation has expired');
    if (found.email !== user.email) throw refuse('The invitation was sent to another e-mail address');
    const cluster = this.#clusters.get(found.clusterId);
    if (!cluster) throw refuse('The invitation token is unknown');
    if (cluster.members.has(user.id))
      throw new ApiError('conflict', 'You are already a member of this cluster');
    found.used = true;
    cluster.members.set(user.id, found.role);
    return { userId: user.id, email: user.email, role: found.role };
  }

  setRole(
    userId: string,
    account: PlanOfAccount,
    id: string,
    memberId: string,
    role: ClusterRole,
    email: string,
  ) {
    const cluster = this.#require(userId, account, id, 'members');
    const caller = cluster.members.get(userId)!;
    const current = cluster.members.get(memberId);
    if (!current)
      throw new ApiError('not_found', `No member "${memberId}" in this cluster`, { userId: memberId });
    if ((role === 'owner' || current === 'owner') && caller !== 'owner')
      throw new ApiError('forbidden', 'Only an owner may make or unmake an owner', {
        role: caller,
        action: 'members',
      });
    if (current === 'owner' && role !== 'owner' && this.#owners(cluster) === 1)
      throw new ApiError('conflict', 'Cannot demote the last owner: make another member owner first');
    cluster.members.set(memberId, role);
    return { userId: memberId, email, role };
  }

  remove(userId: string, account: PlanOfAccount, id: string, memberId: string) {
    const leaving = userId === memberId;
    const cluster = this.#require(userId, account, id, leaving ? 'read' : 'members');
    const caller = cluster.members.get(userId)!;
    const current = cluster.members.get(memberId);
    if (!current)
      throw new ApiError('not_found', `No member "${memberId}" in this cluster`, { userId: memberId });
    if (!leaving && current === 'owner' && caller !== 'owner')
      throw new ApiError('forbidden', 'Only an owner may remove an owner', {
        role: caller,
        action: 'members',
      });
    if (current === 'owner' && this.#owners(cluster) === 1)
      throw new ApiError('conflict', 'Cannot remove the last owner: make another member owner first');
    cluster.members.delete(memberId);
    return { _id: memberId, deleted: true as const };
  }

  #owners(cluster: MockCluster): number {
    return [...cluster.members.values()].filter((role) => role === 'owner').length;
  }

  /**
   * The user's role in a cluster and its status, for the areas that live in clusters (functions, triggers); the
   * default cluster when `id` is null. Null when the user is no member.
   */
  membership(userId: string, account: PlanOfAccount, id: string | null) {
    this.#ensureDefault(userId, account);
    const cluster = this.#clusters.get(id ?? clusterOf(userId));
    const role = cluster?.members.get(userId);
    return cluster && role ? { clusterId: cluster._id, role, status: cluster.status } : null;
  }

  #require(userId: string, account: PlanOfAccount, id: string, action: ClusterAction) {
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
