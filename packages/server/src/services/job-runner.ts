import { type JobKind, STALE_JOB_MS } from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { JobRecord } from '../storage/jobs.js';
import type { Storage } from '../storage/types.js';

/** A new job, running from now (its runner starts it at once). */
export function newJobRecord(
  kind: JobKind,
  id: string,
  clusterId: string,
  input: Record<string, unknown>,
  total: number | null = null,
) {
  const now = new Date().toISOString();
  return {
    id,
    kind,
    status: 'running',
    clusterId,
    input,
    counts: { rows: 0, inserted: 0, failed: 0 },
    bytes: 0,
    errors: [],
    failure: null,
    progress: { done: 0, total },
    result: null,
    createdAt: now,
    startedAt: now,
    updatedAt: now,
    finishedAt: null,
  } satisfies JobRecord;
}

/**
 * Runs jobs of some kinds in the background, each once per instance. A job saves only while it is `running`, so
 * a cancel made anywhere stops it at its next save. `close` makes the work stop at its next step; a starting
 * server takes up the jobs a stop left unfinished (on PostgreSQL, only those no instance saved for
 * `STALE_JOB_MS`, claimed by a compare-and-set on their status and `updatedAt`).
 */
export abstract class JobRunner {
  private readonly running = new Map<string, Promise<void>>();
  private sweeper: NodeJS.Timeout | undefined;
  protected closed = false;

  constructor(
    protected readonly storage: Storage,
    protected readonly log: FastifyBaseLogger,
    private readonly kinds: readonly JobKind[],
  ) {}

  /** The job's work; it returns early when `closed` or when a save answers false. */
  protected abstract work(job: JobRecord): Promise<void>;

  /** What a thrown error leaves behind: by default the job failed with `internal`. */
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
        void this.start({ ...job, status: 'running', startedAt: now, updatedAt: now, finishedAt: null });
      }
    }
  }

  /**
   * On PostgreSQL, looks for stale jobs again every `STALE_JOB_MS`: a job whose instance died is taken up by a
   * live one, not only by the next instance to start (which, restarted at once, finds it not stale yet).
   */
  sweepStale(): void {
    if (this.storage.engine === 'sqlite' || this.sweeper) return;
    this.sweeper = setInterval(() => {
      if (!this.closed)
        this.resumeUnfinished().catch((error: unknown) => this.log.error({ err: error }, 'job sweep failed'));
    }, STALE_JOB_MS);
    this.sweeper.unref();
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
    clearInterval(this.sweeper);
    await this.idle();
  }

  /** Saves the job's progress; false when it is no longer `running` (cancelled), and the work must stop. */
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
