import {
  type ImportFormat,
  type ImportJob,
  JOB_ERROR_LIMIT,
  type Job,
  type JobRowError,
} from '../schemas/job.js';
import type { Violation } from './documents.js';

/** A running job not saved for this long has lost its worker (its server stopped): it may be resumed elsewhere. */
export const STALE_JOB_MS = 30_000;

/** Why a cancelled job stopped. */
export const JOB_CANCELLED: NonNullable<Job['failure']> = {
  code: 'cancelled',
  message: 'The job was cancelled',
};

/** The row error of a row whose `_id` the collection already has. */
export const DUPLICATE_ROW: Omit<JobRowError, 'line'> = {
  code: 'conflict',
  message: 'A document with this _id already exists in the collection',
};

/** 404 for a job that does not exist or that the caller may not see: the two answer alike. */
export function jobNotFound(id: string): Violation {
  return { code: 'not_found', message: `Job "${id}" not found` };
}

/** What a new import is asked to do. */
export interface ImportJobInput {
  collection: string;
  /** The format asked for; undefined until the body shows it (see `importFormat`). */
  format: ImportFormat | undefined;
  onError: 'skip' | 'abort';
  infer: boolean;
}

/** A new import job of `clusterId`, running from `now` (an ISO timestamp), without its id. */
export function newImportJob(clusterId: string, input: ImportJobInput, now: string): Omit<ImportJob, '_id'> {
  return {
    kind: 'import',
    status: 'running',
    clusterId,
    input: { ...input, format: input.format ?? 'ndjson' },
    counts: { rows: 0, inserted: 0, failed: 0 },
    bytes: 0,
    errors: [],
    failure: null,
    progress: { done: 0, total: null },
    result: null,
    createdAt: now,
    startedAt: now,
    updatedAt: now,
    finishedAt: null,
  };
}

/** What deciding a resume needs of the job: the caller passes undefined for a job it may not see. */
export type ResumableJob = Pick<Job, 'kind' | 'status' | 'updatedAt'> & { input: { collection?: unknown } };

/**
 * Why the job `id` may not be resumed by an import into `collection` at `now` (milliseconds), or null when it may:
 * 404 when the caller cannot see it, 409 when it imports into another collection, has succeeded, or is still
 * running on some server (saved within `STALE_JOB_MS`).
 */
export function checkResume(
  id: string,
  job: ResumableJob | undefined,
  collection: string,
  now: number,
): Violation | null {
  if (job?.kind !== 'import') return jobNotFound(id);
  const conflict = (message: string): Violation => ({ code: 'conflict', message });
  if (job.input.collection !== collection)
    return conflict(`Job "${id}" imports into "${String(job.input.collection)}", not "${collection}"`);
  if (job.status === 'succeeded') return conflict(`Job "${id}" has finished; nothing is left to resume`);
  if (job.status === 'running' && now - Date.parse(job.updatedAt) < STALE_JOB_MS)
    return conflict(`Job "${id}" is running; cancel it or wait for it to stop before resuming`);
  return null;
}

/**
 * The fields a resumed job starts its new run with: it counts again from the start (passing what is stored), and
 * its timestamps time this run, so its pace is the rows over that time.
 */
export function restartedJob(now: string) {
  return {
    status: 'running' as const,
    startedAt: now,
    counts: { rows: 0, inserted: 0, failed: 0 },
    bytes: 0,
    errors: [] as JobRowError[],
    failure: null,
    updatedAt: now,
    finishedAt: null,
  };
}

/** 409 for a job that has finished and so cannot be cancelled; null for a queued or running one. */
export function checkCancel(id: string, status: Job['status']): Violation | null {
  if (status === 'queued' || status === 'running') return null;
  return { code: 'conflict', message: `Job "${id}" has finished (${status}); it cannot be cancelled` };
}

/**
 * Records a refused row on a job: counted as failed (unless `counted` is false, for rows a resume finds already
 * counted), and kept while the job holds fewer than `JOB_ERROR_LIMIT` errors.
 */
export function recordRowError(
  job: { counts: { failed: number }; errors: JobRowError[] },
  error: JobRowError,
  counted = true,
): void {
  if (counted) job.counts.failed++;
  if (job.errors.length < JOB_ERROR_LIMIT) job.errors.push(error);
}

/** Why an import with `onError=abort` stopped at a bad row, and how to go on. */
export function rowRefusedFailure(id: string, line: number, why: string): NonNullable<Job['failure']> {
  return {
    code: 'row_refused',
    message: `Stopped at line ${line}: ${why} (onError=abort); fix the row and resume with resume=${id}`,
  };
}
