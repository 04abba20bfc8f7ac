import type { importRoutes, jobsRoutes } from '@dataplatform/contract';
import { checkImportEncoding, importFormatOfMediaType } from '@dataplatform/contract';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import type { RouteHandlers } from '../http/route-call.js';
import type { ImportService } from '../services/import/import-service.js';
import type { JobService } from '../services/jobs.js';

function gzipOf(request: FastifyRequest): boolean {
  const gzip = checkImportEncoding(request.headers['content-encoding']);
  if (typeof gzip === 'boolean') return gzip;
  throw new ApiError(gzip.code, gzip.message, gzip.details);
}

/** What the import and jobs routes need. */
export interface JobRouteServices {
  imports: ImportService;
  jobs: JobService;
  /** The largest row an import holds in memory. */
  maxRowBytes: number;
}

/**
 * The import route (its body streamed, never buffered) and the jobs routes: `/api/v1/data/jobs` for key holders,
 * scoped to the key's cluster, and `/api/jobs` for signed-in users, over every cluster they own.
 */
export function jobHandlers({
  imports,
  jobs,
  maxRowBytes,
}: JobRouteServices): RouteHandlers<typeof importRoutes | typeof jobsRoutes> {
  return {
    'data.import': ({ request, principal, params, query }) =>
      imports.run(
        {
          clusterId: principal.clusterId,
          collection: params.collection,
          format: query.format ?? importFormatOfMediaType(request.headers['content-type']),
          gzip: gzipOf(request),
          onError: query.onError,
          infer: query.infer,
          resume: query.resume,
          maxRowBytes,
        },
        request.raw,
      ),
    'data.jobs.list': ({ principal, query }) =>
      jobs.listInCluster(principal.clusterId, query.limit, query.skip),
    'data.jobs.get': ({ principal, params }) => jobs.getInCluster(principal.clusterId, params.id),
    'jobs.list': ({ request, query }) => jobs.listOwned(request.session!.userId, query.limit, query.skip),
    'jobs.get': ({ request, params }) => jobs.getOwned(request.session!.userId, params.id),
    'jobs.cancel': ({ request, params }) => jobs.cancel(request.session!.userId, params.id),
  };
}
