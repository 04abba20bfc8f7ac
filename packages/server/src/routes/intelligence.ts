import type { intelligenceKeyRoutes, intelligenceRoutes } from '@dataplatform/contract';
import type { FastifyRequest } from 'fastify';
import type { RouteHandlers } from '../http/route-call.js';
import type { IntelligenceCaller, IntelligenceService } from '../services/intelligence/service.js';

function caller(request: FastifyRequest): IntelligenceCaller {
  return { sessionId: request.session!.sessionId, userId: request.session!.userId };
}

/** `/api/intelligence/*` (session, on the user's clusters) and `/api/v1/intelligence/*` (key, its cluster). */
export function intelligenceHandlers(
  intelligence: IntelligenceService,
): RouteHandlers<typeof intelligenceRoutes | typeof intelligenceKeyRoutes> {
  return {
    'intelligence.datasets.create': ({ request, body }) => intelligence.createDataset(caller(request), body),
    'intelligence.datasets.list': ({ request, query }) =>
      intelligence.listDatasets(caller(request), query.clusterId),
    'intelligence.datasets.get': ({ request, params }) => intelligence.getDataset(caller(request), params.id),
    'intelligence.datasets.rows': ({ request, params, query }) =>
      intelligence.datasetRows(caller(request), params.id, query),
    'intelligence.datasets.delete': ({ request, params }) =>
      intelligence.deleteDataset(caller(request), params.id),
    'intelligence.models.create': ({ request, body }) => intelligence.createModel(caller(request), body),
    'intelligence.models.list': ({ request, query }) =>
      intelligence.listModels(caller(request), query.clusterId),
    'intelligence.models.get': ({ request, params }) => intelligence.getModel(caller(request), params.id),
    'intelligence.models.delete': ({ request, params }) =>
      intelligence.deleteModel(caller(request), params.id),
    'intelligence.models.predict': ({ request, params, body }) =>
      intelligence.predict(caller(request), params.id, body),
    'intelligence.predictions.create': ({ request, body }) =>
      intelligence.createPredictions(caller(request), body),
    'intelligence.models.train': ({ principal, body }) => intelligence.trainByKey(principal.clusterId, body),
    'intelligence.models.predictByKey': ({ principal, params, body }) =>
      intelligence.predictByKey(principal.clusterId, params.id, body),
  };
}
