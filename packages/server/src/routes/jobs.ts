import {
  checkCollectionName,
  checkImportEncoding,
  ImportQuery,
  importFormatOfMediaType,
  importRoutes,
  JobListQuery,
  JobParams,
  jobsRoutes,
  type RouteDefinition,
} from '@dataplatform/contract';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { z } from 'zod';
import type { Authenticator } from '../auth/authenticate.js';
import { ApiError } from '../http/errors.js';
import { keepBodyAsStream } from '../http/json-body.js';
import { rejectViolation, validate } from '../http/validate.js';
import type { ImportService } from '../services/import/import-service.js';
import type { JobService } from '../services/jobs.js';
import { type AccountCall, type AccountHandler, registerAccountRoutes } from './account-routes.js';

type ImportRouteId = (typeof importRoutes)[number]['id'];
type JobRouteId = (typeof jobsRoutes)[number]['id'];

function gzipOf(request: FastifyRequest): boolean {
  const gzip = checkImportEncoding(request.headers['content-encoding']);
  if (typeof gzip === 'boolean') return gzip;
  throw new ApiError(gzip.code, gzip.message, gzip.details);
}

/**
 * Registers the import route (its body streamed, never buffered) and the jobs routes: `/api/v1/data/jobs` for
 * key holders, scoped to the key's cluster, and `/api/jobs` for signed-in users, over every cluster they own.
 */
export function registerJobs(
  app: FastifyInstance,
  auth: Authenticator,
  services: { imports: ImportService; jobs: JobService; maxRowBytes: number },
  requireSession: onRequestHookHandler,
): void {
  const { imports, jobs } = services;
  const dataHandlers: Record<ImportRouteId, (request: FastifyRequest) => Promise<unknown>> = {
    'data.import': async (request) => {
      const principal = request.principal!;
      const collection = (request.params as { collection: string }).collection;
      rejectViolation(checkCollectionName(collection));
      const query = validate(ImportQuery, request.query, 'query');
      return imports.run(
        {
          clusterId: principal.clusterId,
          collection,
          format: query.format ?? importFormatOfMediaType(request.headers['content-type']),
          gzip: gzipOf(request),
          onError: query.onError,
          infer: query.infer,
          resume: query.resume,
          maxRowBytes: services.maxRowBytes,
        },
        request.raw,
      );
    },
    'data.jobs.list': async (request) => {
      const query = validate(JobListQuery, request.query, 'query');
      return jobs.listInCluster(request.principal!.clusterId, query.limit, query.skip);
    },
    'data.jobs.get': async (request) => {
      const { id } = validate(JobParams, request.params, 'path');
      return jobs.getInCluster(request.principal!.clusterId, id);
    },
  };
  app.register(async (scope) => {
    keepBodyAsStream(scope);
    for (const route of importRoutes as readonly RouteDefinition[]) {
      const handle = dataHandlers[route.id as ImportRouteId];
      scope.route({
        method: route.method,
        url: route.path.replace(/\{(\w+)\}/g, ':$1'),
        onRequest: async (request, reply) => {
          request.principal = await auth.authenticate(request, reply, route.scopes);
        },
        handler: async (request, reply) => {
          const answer = await handle(request);
          return reply.code(route.success.status).type('application/json; charset=utf-8').send(answer);
        },
      });
    }
  });

  const sessionHandlers: Record<JobRouteId, AccountHandler> = {
    'jobs.list': ({ request, query }: AccountCall<unknown, z.output<typeof JobListQuery>>) =>
      jobs.listOwned(request.session!.userId, query.limit, query.skip),
    'jobs.get': ({ request }) =>
      jobs.getOwned(request.session!.userId, validate(JobParams, request.params, 'path').id),
    'jobs.cancel': ({ request }) =>
      jobs.cancel(request.session!.userId, validate(JobParams, request.params, 'path').id),
  };
  registerAccountRoutes(app, jobsRoutes as readonly RouteDefinition[], sessionHandlers, requireSession);
}
