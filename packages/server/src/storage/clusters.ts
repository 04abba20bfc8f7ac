import type { ClusterRole } from '@dataplatform/contract';
import type { JobRecord } from './jobs.js';

/** A cluster as stored, with what it holds. */
export interface ClusterRow {
  id: string;
  /** The user who created it: their plan counts it. */
  ownerId: string;
  name: string;
  region: string;
  tier: string;
  status: ClusterStatus;
  createdAt: string;
  documentCount: number;
  storageBytes: number;
}

/** Where a cluster is; `deleted` is the tombstone the purge leaves (answered as 404), holding the deletion job. */
export type ClusterStatus = 'creating' | 'running' | 'paused' | 'deleting' | 'deleted';

/** A new cluster, stored `creating` with its creator as owner. */
export interface NewCluster {
  id: string;
  ownerId: string;
  name: string;
  region: string;
  tier: string;
  createdAt: string;
}

/** A cluster of a user together with the user's role in it. */
export interface Membership {
  clusterId: string;
  role: ClusterRole;
}

/** A member as the API lists them. */
export interface MemberRow {
  userId: string;
  email: string;
  role: ClusterRole;
}

/** An invitation to store: its token only as a hash. */
export interface NewInvitation {
  id: string;
  tokenHash: string;
  clusterId: string;
  email: string;
  role: ClusterRole;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

/** An invitation as stored (never its token). */
export type InvitationRow = Omit<NewInvitation, 'tokenHash' | 'invitedBy'>;

/** Why an invitation could not be taken, or the membership it gave. */
export type InvitationOutcome =
  | { ok: true; member: MemberRow; clusterId: string }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' | 'other_email' | 'member' };

/** What a role change or a removal did; `last_owner` when it would have left the cluster without an owner. */
export type MemberChange = 'done' | 'not_member' | 'last_owner';

/** What one step of a purge removed, and whether the cluster is now empty. */
export interface PurgeStep {
  removed: number;
  done: boolean;
}

/**
 * Clusters, their members and their deletion. Status changes, deletion and member changes alter what
 * authentication decides (a key's cluster state and its owner's role), so the server sends them through the
 * authentication cache (`cached-stores.ts`).
 */
export interface ClusterStore {
  /** Stores the cluster `creating` and its creator as owner, in one transaction. */
  create(cluster: NewCluster): Promise<void>;
  /** The cluster with its counts; null when there is none or only its tombstone. */
  find(clusterId: string): Promise<ClusterRow | null>;
  /** Clusters the user is a member of (tombstones left out), oldest first. */
  listForMember(
    userId: string,
    page: { limit: number; skip: number },
  ): Promise<{ rows: ClusterRow[]; total: number }>;
  /** Clusters the user created that still count against their plan (not being deleted). */
  countOwned(userId: string): Promise<number>;
  /** The user's role in the cluster; null when not a member (or the cluster is gone). */
  role(clusterId: string, userId: string): Promise<ClusterRole | null>;
  /**
   * The cluster a user's data request or new key acts on: `clusterId` when the user is a member of it, else
   * (null) the first cluster the user created, else the first they joined; null when there is none.
   */
  membership(userId: string, clusterId: string | null): Promise<Membership | null>;
  /** Renames it or changes its tier. */
  update(clusterId: string, change: { name?: string; tier?: string }): Promise<void>;
  /** Moves the cluster to `to` when its status is one of `from`; false otherwise. */
  setStatus(clusterId: string, from: readonly ClusterStatus[], to: ClusterStatus): Promise<boolean>;
  /**
   * Starts a deletion in one transaction: the cluster becomes `deleting`, its keys are removed (unknown at once)
   * and the deletion job is stored. False, with nothing changed, when it is already being deleted.
   */
  startDeletion(clusterId: string, job: JobRecord): Promise<boolean>;
  /**
   * Removes up to `limit` documents of the deleted cluster; once none are left, everything else of it in one
   * transaction (collections, idempotency records, webhooks and their events, deliveries and attempts, its other
   * jobs, members, invitations), leaving the tombstone and the deletion job.
   */
  purgeStep(clusterId: string, deletionJobId: string, limit: number): Promise<PurgeStep>;
  /** The members with their e-mail addresses, owners first. */
  members(clusterId: string): Promise<MemberRow[]>;
  /** Gives a member another role, unless that leaves no owner (checked in the same transaction). */
  setRole(clusterId: string, userId: string, role: ClusterRole): Promise<MemberChange>;
  /**
   * Removes a member and, in the same transaction, their keys and their robots' keys in the cluster (unknown at
   * once); unless they are its last owner.
   */
  removeMember(clusterId: string, userId: string): Promise<MemberChange>;
  /** Stores an invitation; false when the address already belongs to a member. */
  invite(invitation: NewInvitation): Promise<boolean>;
  /**
   * Takes an invitation for the user with this e-mail address at `now`: single use, before it expires, for the
   * invited address only; the user joins with the invited role in the same transaction.
   */
  accept(tokenHash: string, user: { id: string; email: string }, now: string): Promise<InvitationOutcome>;
}
