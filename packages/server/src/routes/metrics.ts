import type { metricsRoutes } from '@dataplatform/contract';
import type { RouteHandlers } from '../http/route-call.js';
import type { MetricsService } from '../services/metrics.js';

/** `/api/metrics/*`: request metrics and totals of a cluster the user is a member of. */
export function metricsHandlers(metrics: MetricsService): RouteHandlers<typeof metricsRoutes> {
  return {
    'metrics.get': ({ request, query }) => metrics.series(request.session!.userId, query),
    'metrics.summary': ({ request, query }) => metrics.summary(request.session!.userId, query.clusterId),
  };
}
