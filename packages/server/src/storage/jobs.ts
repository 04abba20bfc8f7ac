import type { JobKind } from '@dataplatform/contract';

/** A job as stored: background work of a cluster (imports now), its progress and outcome. */
export interface JobRecord {
  id: string;
  kind: JobKind;
  status: JobStatus;
  clusterId: string;
  /** What the job was asked to do (for an import: collection, format, onError, infer). */
  input: Record<string, unknown>;
  counts: { rows: number; inserted: number; failed: number };
  bytes: number;
  /** The first rows refused, with their lines. */
  errors: { line: number; code: string; message: string }[];
  failure: { code: string; message: string } | null;
  /** Units done and the total, for the kinds that keep them; imports and deletions count in `counts` instead. */
  progress?: { done: number; total: number | null } | null;
  /** What a finished job produced (a validator check's counts and samples); null for the other kinds. */
  result?: unknown;
  createdAt: string;
  startedAt: string | null;
  updatedAt: string;
  finishedAt: string | null;
}

/** Where a job is. */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/**
 * Jobs of clusters. A job's worker saves it only while it is `running`, so a cancel made by any instance wins
 * over the worker's next save, and the worker learns of it from that save.
 */
export interface JobStore {
  create(job: JobRecord): Promise<void>;
  find(id: string): Promise<JobRecord | null>;
  /** Jobs of one cluster, newest first. */
  listByCluster(
    clusterId: string,
    page: { limit: number; skip: number },
  ): Promise<{ rows: JobRecord[]; total: number }>;
  /** Jobs of every cluster the user is a member of or created, newest first. */
  listByOwner(
    userId: string,
    page: { limit: number; skip: number },
  ): Promise<{ rows: JobRecord[]; total: number }>;
  /** Whether the user is a member of the job's cluster or created it. */
  isOwnedBy(jobId: string, userId: string): Promise<boolean>;
  /** Jobs of this kind still queued or running, oldest first: the work a starting server takes up again. */
  unfinished(kind: JobRecord['kind']): Promise<JobRecord[]>;
  /** Writes the job's progress (and status, when it finishes) if it is still `running`; false when it is not. */
  save(job: JobRecord): Promise<boolean>;
  /** Sets the job `running` again, started at `now`, if it is still as `expected` (status and updatedAt) was read; false otherwise. */
  restart(id: string, expected: { status: JobStatus; updatedAt: string }, now: string): Promise<boolean>;
  /** Cancels a queued or running job; false when it had finished. */
  cancel(id: string, failure: { code: string; message: string }, now: string): Promise<boolean>;
}
