import type { logsRoutes } from '@dataplatform/contract';
import type { RouteHandlers } from '../http/route-call.js';
import type { ActivityLog } from '../services/activity.js';

/** `/api/logs/*`: the signed-in user's own activity log. */
export function logsHandlers(activity: ActivityLog): RouteHandlers<typeof logsRoutes> {
  return {
    'logs.activity': ({ request, query }) => activity.list(request.session!.userId, query.limit, query.skip),
  };
}
