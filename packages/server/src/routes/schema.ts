import type { indexRoutes, schemaKeyRoutes, schemaRoutes } from '@dataplatform/contract';
import type { FastifyRequest } from 'fastify';
import type { RouteHandlers } from '../http/route-call.js';
import type { SchemaCaller, SchemaService } from '../services/schema.js';

function caller(request: FastifyRequest, clusterId: string | undefined): SchemaCaller {
  return { sessionId: request.session!.sessionId, userId: request.session!.userId, clusterId };
}

/** `/api/schema/*` (a session, on a cluster it names or its default one) and `/api/v1/schema/*` (read only, keys). */
export function schemaHandlers(
  schema: SchemaService,
): RouteHandlers<typeof schemaRoutes | typeof indexRoutes | typeof schemaKeyRoutes> {
  return {
    'schema.collections.list': async ({ request, query }) =>
      schema.collections(await schema.clusterOf(caller(request, query.clusterId), 'read')),
    'schema.validator.get': async ({ request, params, query }) =>
      schema.getValidator(
        await schema.clusterOf(caller(request, query.clusterId), 'read'),
        params.collection,
      ),
    'schema.validator.put': async ({ request, params, query, body }) =>
      schema.putValidator(
        await schema.clusterOf(caller(request, query.clusterId), 'schema'),
        params.collection,
        body,
      ),
    'schema.validator.delete': async ({ request, params, query }) =>
      schema.deleteValidator(
        await schema.clusterOf(caller(request, query.clusterId), 'schema'),
        params.collection,
      ),
    'schema.indexes.list': async ({ request, params, query }) =>
      schema.listIndexes(await schema.clusterOf(caller(request, query.clusterId), 'read'), params.collection),
    'schema.indexes.create': async ({ request, params, query, body }) =>
      schema.createIndex(
        await schema.clusterOf(caller(request, query.clusterId), 'schema'),
        params.collection,
        body,
      ),
    'schema.indexes.delete': async ({ request, params, query }) =>
      schema.dropIndex(
        await schema.clusterOf(caller(request, query.clusterId), 'schema'),
        params.collection,
        params.name,
      ),
    'schema.validator.check': async ({ request, params, query }) =>
      schema.checkValidator(
        await schema.clusterOf(caller(request, query.clusterId), 'schema'),
        params.collection,
      ),
    'schema.infer': async ({ request, params, query }) =>
      schema.infer(
        await schema.clusterOf(caller(request, query.clusterId), 'read'),
        params.collection,
        query.sample,
      ),
    'schema.collections.drop': async ({ request, params, query }) =>
      schema.dropCollection(
        await schema.clusterOf(caller(request, query.clusterId), 'schema'),
        params.collection,
      ),
    'data.schema.infer': ({ principal, params, query }) =>
      schema.infer(principal.clusterId, params.collection, query.sample),
    'data.schema.indexes.list': ({ principal, params }) =>
      schema.listIndexes(principal.clusterId, params.collection),
    'data.schema.collections.list': ({ principal }) => schema.collections(principal.clusterId),
    'data.schema.validator.get': ({ principal, params }) =>
      schema.getValidator(principal.clusterId, params.collection),
  };
}
