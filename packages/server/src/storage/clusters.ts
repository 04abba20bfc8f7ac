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
}
