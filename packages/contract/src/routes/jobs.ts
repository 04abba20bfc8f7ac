import { CollectionParams } from '../schemas/document.js';
import { ImportQuery, Job, JobList, JobListQuery, JobParams } from '../schemas/job.js';
import type { RouteDefinition } from './types.js';

const IMPORT_DESCRIPTION = [
  'Streams a file of documents into the collection. The body is NDJSON (`application/x-ndjson`), a JSON array (`application/json`) or CSV with a header row (`text/csv`), chosen by `format` or else by the Content-Type; gzip is accepted with `Content-Encoding: gzip` or recognised by its first bytes. The body has no size limit: it is read as it arrives, so the server holds one chunk at a time.',
  'Rows are stored in transactions of 1000 through the same path as single writes: a row keeps its own `_id` or gets a generated one, and a taken `_id` is a bad row (`conflict`). Each bad row is reported with the line it starts on; with `onError=skip` it is left out and the import goes on, with `onError=abort` the import stops there, keeping the rows before it and none after. CSV cells are typed (numbers, `true`/`false`, empty as null) unless `infer=false`.',
  'The answer is 202 with the job once the body is read, its status `succeeded`, `failed` (with `failure`) or `cancelled`; meanwhile the jobs routes show its progress. An import stopped part way (the connection dropped, the server stopped, it was cancelled, or it aborted at a bad row) can be resumed with `resume=<job id>` and the same file sent again from its start: rows already stored are passed over, so none is stored twice (for 24 hours, how long the server keeps the marks of stored chunks).',
].join('\n\n');

/** Imports and jobs for key holders, under /api/v1/data; the fixed `jobs` path wins over `{collection}`. */
export const importRoutes = [
  {
    id: 'data.import',
    method: 'POST',
    path: '/api/v1/data/{collection}/import',
    tag: 'data',
    summary: 'Import a file of documents',
    description: IMPORT_DESCRIPTION,
    auth: 'data',
    scopes: ['data:write'],
    params: CollectionParams,
    query: ImportQuery,
    streamBody: {
      'application/x-ndjson': 'One JSON object per line',
      'application/json': 'A JSON array of objects',
      'text/csv': 'A header row, then one row per document',
      'application/gzip': 'Any of these, gzipped (the format then comes from `format`, else NDJSON)',
    },
    success: { status: 202, description: 'The import job, finished', schema: Job },
    errors: ['validation_error', 'reserved_collection', 'not_found', 'conflict'],
  },
  {
    id: 'data.jobs.list',
    method: 'GET',
    path: '/api/v1/data/jobs',
    tag: 'jobs',
    summary: "List the cluster's jobs",
    description: 'The jobs of the cluster the credential acts on, newest first.',
    auth: 'data',
    scopes: ['data:read', 'data:write'],
    query: JobListQuery,
    success: { status: 200, description: 'A page of jobs', schema: JobList },
    errors: ['validation_error'],
  },
  {
    id: 'data.jobs.get',
    method: 'GET',
    path: '/api/v1/data/jobs/{id}',
    tag: 'jobs',
    summary: 'Get a job',
    description: 'A job of the cluster the credential acts on; a job of another cluster is 404.',
    auth: 'data',
    scopes: ['data:read', 'data:write'],
    params: JobParams,
    success: { status: 200, description: 'The job', schema: Job },
    errors: ['validation_error', 'not_found'],
  },
] as const satisfies readonly RouteDefinition[];

/** Jobs of a signed-in user's clusters, under /api/jobs. */
export const jobsRoutes = [
  {
    id: 'jobs.list',
    method: 'GET',
    path: '/api/jobs',
    tag: 'jobs',
    summary: 'List your jobs',
    description: 'The jobs of every cluster the signed-in user is a member of (or created), newest first.',
    auth: 'session',
    scopes: [],
    query: JobListQuery,
    success: { status: 200, description: 'A page of jobs', schema: JobList },
    errors: ['validation_error'],
  },
  {
    id: 'jobs.get',
    method: 'GET',
    path: '/api/jobs/{id}',
    tag: 'jobs',
    summary: 'Get a job',
    auth: 'session',
    scopes: [],
    params: JobParams,
    success: { status: 200, description: 'The job', schema: Job },
    errors: ['not_found'],
  },
  {
    id: 'jobs.cancel',
    method: 'POST',
    path: '/api/jobs/{id}/cancel',
    tag: 'jobs',
    summary: 'Cancel a job',
    description:
      "Stops a queued or running job after the chunk it is storing; what was stored stays (an import can be resumed). A finished job, and a cluster deletion, are 409 `conflict`. A viewer of the job's cluster is 403 `forbidden`.",
    auth: 'session',
    scopes: [],
    params: JobParams,
    success: { status: 200, description: 'The job, cancelled', schema: Job },
    errors: ['not_found', 'conflict', 'forbidden'],
  },
] as const satisfies readonly RouteDefinition[];
