import type { clusterRoutes, memberRoutes } from '@dataplatform/contract';
import type { RouteHandlers } from '../http/route-call.js';
import type { ClusterMembers } from '../services/cluster-members.js';
import type { ClusterService } from '../services/clusters.js';

/** `/api/clusters/*`: the life cycle of the signed-in user's clusters; the role checks are the service's. */
export function clusterHandlers(clusters: ClusterService): RouteHandlers<typeof clusterRoutes> {
  return {
    'clusters.create': ({ request, body }) => clusters.create(request.session!.userId, body),
    'clusters.list': ({ request, query }) => clusters.list(request.session!.userId, query.limit, query.skip),
    'clusters.get': ({ request, params }) => clusters.get(request.session!.userId, params.id),
    'clusters.update': ({ request, params, body }) =>
      clusters.update(request.session!.userId, params.id, body),
    'clusters.pause': ({ request, params }) => clusters.pause(request.session!.userId, params.id),
    'clusters.resume': ({ request, params }) => clusters.resume(request.session!.userId, params.id),
    'clusters.delete': ({ request, params }) => clusters.delete(request.session!.userId, params.id),
  };
}

/** `/api/clusters/{id}/members`, `…/invitations` and the acceptance of an invitation. */
export function memberHandlers(members: ClusterMembers): RouteHandlers<typeof memberRoutes> {
  return {
    'clusters.members.list': ({ request, params }) => members.list(request.session!.userId, params.id),
    'clusters.invitations.create': ({ request, params, body }) =>
      members.invite(request.session!.userId, params.id, body),
    'clusters.invitations.accept': ({ request, body }) => members.accept(request.session!.userId, body.token),
    'clusters.members.update': ({ request, params, body }) =>
      members.setRole(request.session!.userId, params.id, params.userId, body.role),
    'clusters.members.delete': ({ request, params }) =>
      members.remove(request.session!.userId, params.id, params.userId),
  };
}
