import type { FastifyBaseLogger } from 'fastify';
import type { JobRecord } from '../storage/jobs.js';
import type { Storage } from '../storage/types.js';
import { JobRunner } from './job-runner.js';

/** Documents removed per step: small enough that a step never holds the database for long. */
const PURGE_CHUNK = 1000;

/**
 * Runs the `cluster.delete` jobs: purges the cluster a chunk at a time, saving the job's count after each, until
 * only its tombstone and the job are left. A server that starts takes up every deletion left unfinished (by a
 * crash or a stop), so a purge always completes; two instances purging the same cluster only share the work.
 */
export class ClusterDeletions extends JobRunner {
  constructor(storage: Storage, log: FastifyBaseLogger) {
    super(storage, log, ['cluster.delete']);
  }

  /** Takes up every unfinished deletion at once, with no claim: two instances purging a cluster share the work. */
  override async resumeUnfinished(): Promise<void> {
    for (const job of await this.storage.jobs.unfinished('cluster.delete')) void this.start(job);
  }

  /** A purge that stopped on an error stays unfinished, for the next start to take up. */
  protected override async stopped(job: JobRecord, error: unknown): Promise<void> {
    this.log.error({ err: error, jobId: job.id }, 'cluster deletion stopped');
  }

  protected async work(job: JobRecord): Promise<void> {
    const clusterId = job.input.clusterId as string;
    let current: JobRecord = { ...job, status: 'running' };
    for (;;) {
      if (this.closed) return;
      const step = await this.storage.clusters.purgeStep(clusterId, job.id, PURGE_CHUNK);
      const now = new Date().toISOString();
      current = {
        ...current,
        counts: { ...current.counts, rows: current.counts.rows + step.removed },
        updatedAt: now,
        ...(step.done ? { status: 'succeeded' as const, finishedAt: now } : {}),
      };
      await this.storage.jobs.save(current);
      if (step.done) return;
    }
  }
}
