import { STALE_JOB_MS } from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { JobRecord } from '../storage/jobs.js';
import type { Storage } from '../storage/types.js';

/**
 * What every runner of background jobs shares: it runs each job once per instance, waits for them on close, and on
 * start takes up the jobs of its kinds that a stop left unfinished (on PostgreSQL, those no instance saved for
 * `STALE_JOB_MS`). A job saves only while it is `running`, so a cancel stops it at its next save. A subclass does
 * the work of a job in `work`.
 */
export abstract class JobRunner {
  private readonly running = new Map<string, Promise<void>>();
  protected closed = false;

  constructor(
    protected readonly storage: Storage,
    protected readonly log: FastifyBaseLogger,
    private readonly kinds: readonly JobRecord['kind'][],
  ) {}

  /** The work of one job, until it is finished (or cancelled, or the runner closes). */
  protected abstract work(job: JobRecord): Promise<void>;

  /** A job whose work threw: logged, and failed as `internal`. */
  protected async stopped(job: JobRecord, error: unknown): Promise<void> {
    this.log.error({ err: error, jobId: job.id }, `${job.kind} job stopped`);
    await this.finish(job, { failure: { code: 'internal', message: 'The job stopped on an error' } });
  }

  async resumeUnfinished(): Promise<void> {
    const shared = this.storage.engine !== 'sqlite';
    for (const kind of this.kinds) {
      for (const job of await this.storage.jobs.unfinished(kind)) {
        if (shared && Date.now() - Date.parse(job.updatedAt) < STALE_JOB_MS) continue;
        const now = new Date().toISOString();
        if (!(await this.storage.jobs.restart(job.id, job, now))) continue;
        this.start({ ...job, status: 'running', startedAt: now, updatedAt: now, finishedAt: null });
      }
    }
  }

  /** Runs the job in the background (once per job on this instance); the promise settles when it stops. */
  start(job: JobRecord): Promise<void> {
    const existing = this.running.get(job.id);
    if (existing) return existing;
    if (this.closed) return Promise.resolve();
    const run = this.work(job)
      .catch((error: unknown) => this.stopped(job, error))
      .finally(() => this.running.delete(job.id));
    this.running.set(job.id, run);
    return run;
  }

  /** Waits for every running job (tests), or after `close` for each to stop at its next step. */
  async idle(): Promise<void> {
    await Promise.all([...this.running.values()]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }

  /** Writes the job's change; false when it is no longer `running` (cancelled). */
  protected save(job: JobRecord, change: Partial<JobRecord>): Promise<boolean> {
    Object.assign(job, change, { updatedAt: new Date().toISOString() });
    return this.storage.jobs.save(job);
  }

  /** Ends the job: `failed` with a failure, else `succeeded`. */
  protected async finish(job: JobRecord, change: Partial<JobRecord>): Promise<void> {
    const now = new Date().toISOString();
    await this.save(job, { ...change, status: change.failure ? 'failed' : 'succeeded', finishedAt: now });
  }
}
