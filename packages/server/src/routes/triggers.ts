import type { triggerKeyRoutes, triggerRoutes } from '@dataplatform/contract';
import type { RouteHandlers } from '../http/route-call.js';
import type { TriggerService } from '../services/triggers.js';

/** `/api/triggers/*` (session) and `/api/v1/triggers/{id}/run` (key); the role checks are the service's. */
export function triggerHandlers(
  triggers: TriggerService,
): RouteHandlers<typeof triggerRoutes | typeof triggerKeyRoutes> {
  return {
    'triggers.create': ({ request, body }) => triggers.create(request.session!.userId, body),
    'triggers.list': ({ request, query }) => triggers.list(request.session!.userId, query),
    'triggers.get': ({ request, params }) => triggers.get(request.session!.userId, params.id),
    'triggers.update': ({ request, params, body }) =>
      triggers.update(request.session!.userId, params.id, body),
    'triggers.delete': ({ request, params }) => triggers.delete(request.session!.userId, params.id),
    'triggers.pause': ({ request, params }) => triggers.setActive(request.session!.userId, params.id, false),
    'triggers.resume': ({ request, params }) => triggers.setActive(request.session!.userId, params.id, true),
    'triggers.run': ({ request, params }) => triggers.run(request.session!.userId, params.id),
    'triggers.runs': ({ request, params, query }) => triggers.runs(request.session!.userId, params.id, query),
    'triggers.runByKey': ({ principal, params }) => triggers.runInCluster(principal.clusterId, params.id),
  };
}
