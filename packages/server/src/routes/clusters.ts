import type { clusterRoutes } from '@dataplatform/contract';
import type { RouteHandlers } from '../http/route-call.js';
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
