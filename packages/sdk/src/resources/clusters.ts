import type {
  Cluster,
  ClusterCreate,
  ClusterMember,
  ClusterMemberList,
  ClusterRole,
  ClusterUpdate,
  Invitation,
  InvitationCreate,
  Job,
} from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';
import { segment } from '../internal/utils.js';

/** Query of `client.clusters.list()`. */
export interface ClusterListParams {
  /** Clusters per page, 1 to 1000 (default 50). */
  limit?: number;
  skip?: number;
}

/** The members of a cluster: `/api/clusters/{id}/members`. */
export class ClusterMembers extends APIResource {
  /** Every member with their role, owners first. */
  list(clusterId: string, options?: RequestOptions): APIPromise<ClusterMemberList> {
    return this._client.get(`${path(clusterId)}/members`, options);
  }

  /** Gives a member another role; ConflictError for the last owner, PermissionDeniedError for an admin's owner change. */
  update(
    clusterId: string,
    userId: string,
    role: ClusterRole,
    options?: RequestOptions,
  ): APIPromise<ClusterMember> {
    return this._client.patch(memberPath(clusterId, userId), { ...options, body: { role } });
  }

  /** Removes a member (or, with your own id, leaves); their keys in the cluster stop at once. */
  remove(
    clusterId: string,
    userId: string,
    options?: RequestOptions,
  ): APIPromise<{ _id: string; deleted: true }> {
    return this._client.delete(memberPath(clusterId, userId), options);
  }
}

/** Invitations to a cluster: e-mailed, single use, valid seven days, for the invited address only. */
export class ClusterInvitations extends APIResource {
  /** Invites someone by e-mail; ConflictError when they are a member already. */
  create(clusterId: string, body: InvitationCreate, options?: RequestOptions): APIPromise<Invitation> {
    return this._client.post(`${path(clusterId)}/invitations`, { ...options, body });
  }

  /** Accepts the invitation whose link carried `token`: the signed-in user joins with the invited role. */
  accept(token: string, options?: RequestOptions): APIPromise<ClusterMember> {
    return this._client.post('/api/clusters/invitations/accept', { ...options, body: { token } });
  }
}

/**
 * The signed-in user's clusters, under `/api/clusters` (session token only): create within the plan's limits,
 * pause and resume, delete by a job, and manage who else may act on them.
 * @example const cluster = await client.clusters.create({ name: 'staging' });
 */
export class Clusters extends APIResource {
  /** `/api/clusters/{id}/members`. */
  readonly members: ClusterMembers = new ClusterMembers(this._client);
  /** `/api/clusters/{id}/invitations` and their acceptance. */
  readonly invitations: ClusterInvitations = new ClusterInvitations(this._client);

  /** Creates a cluster (status `creating`, then `running`); PermissionDeniedError `plan_limit` past the plan. */
  create(body: ClusterCreate, options?: RequestOptions): APIPromise<Cluster> {
    return this._client.post('/api/clusters', { ...options, body });
  }

  /**
   * The clusters the user is a member of: await for a page, or `for await` for every one.
   * @example for await (const cluster of client.clusters.list()) console.log(cluster.name, cluster.status);
   */
  list(params: ClusterListParams = {}, options?: RequestOptions): PagePromise<Cluster> {
    return this._client.getAPIList('/api/clusters', { limit: params.limit, skip: params.skip }, options);
  }

  /** One cluster with its document count and storage; NotFoundError for one you are not a member of. */
  get(id: string, options?: RequestOptions): APIPromise<Cluster> {
    return this._client.get(path(id), options);
  }

  /** Renames it or changes its tier. */
  update(id: string, body: ClusterUpdate, options?: RequestOptions): APIPromise<Cluster> {
    return this._client.patch(path(id), { ...options, body });
  }

  /** Every data request for it answers 503 `cluster_unavailable` until `resume`; webhook events wait. */
  pause(id: string, options?: RequestOptions): APIPromise<Cluster> {
    return this._client.post(`${path(id)}/pause`, options);
  }

  /** Runs it again; held webhook events go out. */
  resume(id: string, options?: RequestOptions): APIPromise<Cluster> {
    return this._client.post(`${path(id)}/resume`, options);
  }

  /** Starts its deletion: its keys stop at once; the answer is the `cluster.delete` job (see `client.jobs`). */
  delete(id: string, options?: RequestOptions): APIPromise<Job> {
    return this._client.delete(path(id), options);
  }
}

function path(id: string): string {
  return `/api/clusters/${segment(id, 'cluster id')}`;
}

function memberPath(clusterId: string, userId: string): string {
  return `${path(clusterId)}/members/${segment(userId, 'user id')}`;
}
