import type { logsKeyRoutes, logsRoutes } from '@dataplatform/contract';
import type { RouteHandlers } from '../http/route-call.js';
import type { ActivityLog } from '../services/activity.js';
import type { RequestLogService } from '../services/request-logs.js';

/** `/api/logs/*`: the signed-in user's own activity log, and the requests they may see. */
export function logsHandlers(
  activity: ActivityLog,
  requests: RequestLogService,
): RouteHandlers<typeof logsRoutes> {
  return {
    'logs.activity': ({ request, query }) => activity.list(request.session!.userId, query.limit, query.skip),
    'logs.requests.list': ({ request, query }) => requests.list({ userId: request.session!.userId }, query),
    'logs.requests.get': ({ request, params }) =>
      requests.get({ userId: request.session!.userId }, params.requestId),
  };
}

/** `/api/v1/logs/requests`: the request log of the key's cluster (`logs:read`). */
export function logsKeyHandlers(requests: RequestLogService): RouteHandlers<typeof logsKeyRoutes> {
  return {
    'logs.requests.listByKey': ({ principal, query }) =>
      requests.list({ clusterId: principal.clusterId }, query),
  };
}
