import type { ImportFormat, importRoutes, jobsRoutes } from '@dataplatform/contract';
import type { Operation } from './document-operations.js';

type RouteId = (typeof importRoutes)[number]['id'] | (typeof jobsRoutes)[number]['id'];

const FORMAT_BY_TYPE: Record<string, ImportFormat> = {
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
  'application/x-jsonlines': 'ndjson',
  'application/json': 'json',
  'text/csv': 'csv',
};

const jobsOf = (input: Parameters<Operation>[0]) => {
  if (!input.jobs) throw new Error('job routes need the job ledger');
  return input.jobs;
};

const page = (query: Record<string, unknown>) => query as { limit: number; skip: number };

/** The import and jobs routes: imports run synchronously in memory and answer with the finished job, as on the server. */
export const importOperations: Record<RouteId, Operation> = {
  'data.import': (input, documents) => {
    const query = input.query as {
      format?: ImportFormat;
      onError: 'skip' | 'abort';
      infer: boolean;
      resume?: string;
    };
    const contentType = input.stream?.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
    const job = jobsOf(input).run(
      {
        collection: input.params.collection!,
        text: input.stream?.text ?? '',
        format: query.format ?? FORMAT_BY_TYPE[contentType],
        onError: query.onError,
        infer: query.infer,
        resume: query.resume,
        // The job is the cluster's: a key's import shows among its owner's jobs, as on the server.
        userId: input.userId ?? null,
      },
      documents,
    );
    return { status: 202, body: job };
  },
  'data.jobs.list': (input) => {
    const { limit, skip } = page(input.query);
    return { status: 200, body: jobsOf(input).list(null, limit, skip) };
  },
  'data.jobs.get': (input) => ({ status: 200, body: jobsOf(input).get(input.params.id!, null) }),
  'jobs.list': (input) => {
    const { limit, skip } = page(input.query);
    return { status: 200, body: jobsOf(input).list(input.account!.session!.userId, limit, skip) };
  },
  'jobs.get': (input) => ({
    status: 200,
    body: jobsOf(input).get(input.params.id!, input.account!.session!.userId),
  }),
  'jobs.cancel': (input) => ({
    status: 200,
    body: jobsOf(input).cancel(input.params.id!, input.account!.session!.userId),
  }),
};
