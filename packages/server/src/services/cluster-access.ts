import {
  type ClusterAction,
  type ClusterRole,
  checkClusterAccess,
  clusterNotFound,
} from '@dataplatform/contract';
import { rejectViolation } from '../http/validate.js';
import type { Storage } from '../storage/types.js';

/**
 * "May this user do this on this cluster?" for the session routes of `/api/clusters` and the keys: the user's role
 * there, checked by the contract's `checkClusterAccess` (the same function the data routes' authentication uses).
 * A cluster the user is no member of is 404, as one that does not exist; a role that does not allow it is 403.
 */
export class ClusterAccess {
  constructor(private readonly storage: Storage) {}

  /** The user's role in the cluster when it allows `action`; throws 404 `not_found` or 403 `forbidden` otherwise. */
  async require(userId: string, clusterId: string, action: ClusterAction): Promise<ClusterRole> {
    const role = await this.storage.clusters.role(clusterId, userId);
    if (role === null) rejectViolation(clusterNotFound(clusterId));
    rejectViolation(checkClusterAccess(role!, action));
    return role!;
  }
}

/**
 * The cluster a session acts on, when the user's role there allows `action`: the one named, else the user's
 * default; 404 `not_found` when the user is no member of it (or it is being deleted), 403 `forbidden` when the
 * role does not allow it.
 */
export async function sessionCluster(
  storage: Storage,
  sessionId: string,
  clusterId: string | undefined,
  action: ClusterAction,
): Promise<string> {
  const session = await storage.sessions.findForData(sessionId, clusterId ?? null);
  const cluster = session?.cluster;
  if (!cluster || cluster.status === 'deleting' || cluster.status === 'deleted')
    rejectViolation(clusterNotFound(clusterId ?? 'default'));
  rejectViolation(checkClusterAccess(cluster!.role, action));
  return cluster!.id;
}
