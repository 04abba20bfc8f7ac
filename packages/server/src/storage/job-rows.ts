import type { JobRecord } from './jobs.js';

/** A job as both engines store it: JSON columns as text. */
export interface JobRow {
  id: string;
  clusterId: string;
  kind: string;
  status: string;
  input: string;
  counts: string;
  bytes: number | string;
  errors: string;
  failure: string | null;
  progress: string | null;
  result: string | null;
  createdAt: string;
  startedAt: string | null;
  updatedAt: string;
  finishedAt: string | null;
}

/** The columns of a job, named as `JobRow` (quoted for PostgreSQL's case). */
export const JOB_COLUMNS = `id, cluster_id AS "clusterId", kind, status, input, counts, bytes, errors, failure, progress, result,
  created_at AS "createdAt", started_at AS "startedAt", updated_at AS "updatedAt", finished_at AS "finishedAt"`;

/** A stored row as a job. */
export function jobOf(row: JobRow): JobRecord {
  return {
    id: row.id,
    kind: row.kind as JobRecord['kind'],
    status: row.status as JobRecord['status'],
    clusterId: row.clusterId,
    input: JSON.parse(row.input) as JobRecord['input'],
    counts: JSON.parse(row.counts) as JobRecord['counts'],
    bytes: Number(row.bytes),
    errors: JSON.parse(row.errors) as JobRecord['errors'],
    failure: row.failure === null ? null : (JSON.parse(row.failure) as JobRecord['failure']),
    progress: row.progress === null ? null : (JSON.parse(row.progress) as JobRecord['progress']),
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    updatedAt: row.updatedAt,
    finishedAt: row.finishedAt,
  };
}

/** The values of a job's columns that change while it runs, in the order the stores bind them. */
export function progressValues(job: JobRecord) {
  return {
    input: JSON.stringify(job.input),
    status: job.status,
    counts: JSON.stringify(job.counts),
    bytes: job.bytes,
    errors: JSON.stringify(job.errors),
    failure: job.failure === null ? null : JSON.stringify(job.failure),
    progress: job.progress ? JSON.stringify(job.progress) : null,
    result: job.result === undefined || job.result === null ? null : JSON.stringify(job.result),
    startedAt: job.startedAt,
    updatedAt: job.updatedAt,
    finishedAt: job.finishedAt,
  };
}
