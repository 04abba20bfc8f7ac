import { checkCancel, JOB_CANCELLED, JOB_ERROR_LIMIT, jobNotFound } from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import { rejectViolation } from '../http/validate.js';
import type { JobRecord } from '../storage/jobs.js';
import type { Storage } from '../storage/types.js';
import { ClusterAccess } from './cluster-access.js';

/** A job as the API shows it. */
export function publicJob(job: JobRecord) {
  return {
    _id: job.id,
    kind: job.kind,
    status: job.status,
    clusterId: job.clusterId,
    input: job.input,
    counts: job.counts,
    bytes: job.bytes,
    errors: job.errors.slice(0, JOB_ERROR_LIMIT),
    failure: job.failure,
    // Imports and deletions count rows in `counts`; the other kinds keep their own progress.
    progress: job.progress ?? { done: job.counts.rows, total: null },
    result: job.result ?? null,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    updatedAt: job.updatedAt,
    finishedAt: job.finishedAt,
  };
}

const notFound = (id: string) => {
  const { code, message } = jobNotFound(id);
  return new ApiError(code, message);
};

/** Jobs as key holders (one cluster) and signed-in users (every cluster they own) see them. */
export class JobService {
  constructor(private readonly storage: Storage) {}

  /** A job of the cluster; 404 for a job of another cluster, as for one that does not exist. */
  async getInCluster(clusterId: string, id: string) {
    const job = await this.storage.jobs.find(id);
    if (!job || job.clusterId !== clusterId) throw notFound(id);
    return publicJob(job);
  }

  async listInCluster(clusterId: string, limit: number, skip: number) {
    const { rows, total } = await this.storage.jobs.listByCluster(clusterId, { limit, skip });
    return { data: rows.map(publicJob), total, limit, skip };
  }

  /** A job of one of the user's clusters; 404 otherwise. */
  async getOwned(userId: string, id: string) {
    const job = await this.storage.jobs.find(id);
    if (!job || !(await this.storage.jobs.isOwnedBy(id, userId))) throw notFound(id);
    return publicJob(job);
  }

  async listOwned(userId: string, limit: number, skip: number) {
    const { rows, total } = await this.storage.jobs.listByOwner(userId, { limit, skip });
    return { data: rows.map(publicJob), total, limit, skip };
  }

  /**
   * Cancels a queued or running job of the user, when their role in its cluster lets them write data (403
   * otherwise); 409 when it had finished, and for a cluster deletion, which always runs to its end. Its worker
   * stops at its next save.
   */
  async cancel(userId: string, id: string) {
    const found = await this.getOwned(userId, id);
    if (found.kind === 'cluster.delete')
      throw new ApiError('conflict', `Job "${id}" deletes a cluster, which cannot be stopped part way`);
    await new ClusterAccess(this.storage).require(userId, found.clusterId, 'data');
    const now = new Date().toISOString();
    const cancelled = await this.storage.jobs.cancel(id, JOB_CANCELLED, now);
    const job = (await this.storage.jobs.find(id))!;
    // Not cancelled: it had finished, or (rarely) a resume restarted it meanwhile.
    if (!cancelled)
      rejectViolation(
        checkCancel(id, job.status) ?? {
          code: 'conflict',
          message: `Job "${id}" changed while being cancelled; try again`,
        },
      );
    return publicJob(job);
  }
}
