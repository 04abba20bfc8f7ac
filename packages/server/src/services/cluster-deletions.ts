import type { FastifyBaseLogger } from 'fastify';
import type { JobRecord } from '../storage/jobs.js';
import type { Storage } from '../storage/types.js';

/** Documents removed per step: small enough that a step never holds the database for long. */
const PURGE_CHUNK = 1000;

/**
 * Runs the `cluster.delete` jobs: purges the cluster a chunk at a time, saving the job's count after each, until
 * only its tombstone and the job are left. A server that starts takes up every deletion left unfinished (by a
 * crash or a stop), so a purge always completes; two instances purging the same cluster only share the work.
 */
export class ClusterDeletions {
  private readonly running = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly storage: Storage,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Takes up the deletions a previous run of the server left unfinished. */
  async resumeUnfinished(): Promise<void> {
    for (const job of await this.storage.jobs.unfinished('cluster.delete')) this.start(job);
  }

  /** Runs the job in the background (once per job on this instance). */
  start(job: JobRecord): void {
    if (this.closed || this.running.has(job.id)) return;
    const run = this.run(job)
      .catch((error: unknown) => this.log.error({ err: error, jobId: job.id }, 'cluster deletion stopped'))
      .finally(() => this.running.delete(job.id));
    this.running.set(job.id, run);
  }

  /** Waits for every running deletion to finish (tests) or, after `close`, to stop at its next step. */
  async idle(): Promise<void> {
    await Promise.all([...this.running.values()]);
  }

  /** Stops taking steps; a deletion cut short here is taken up by the next start. */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }

  private async run(job: JobRecord): Promise<void> {
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
