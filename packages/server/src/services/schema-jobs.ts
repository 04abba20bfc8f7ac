import { STALE_JOB_MS, VALIDATOR_CHECK_SAMPLES } from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { JobRecord } from '../storage/jobs.js';
import type { Storage } from '../storage/types.js';
import { nextId } from './document-operations.js';
import { compileSchema, type SchemaGuards } from './schema-guards.js';

/** Documents read per step of a check, and removed per step of a drop: each step holds the database briefly. */
const CHECK_CHUNK = 500;
const DROP_CHUNK = 1000;

type SchemaJobKind = 'validator.check' | 'collection.drop';

/** A new running job of a collection. */
export function newSchemaJob(
  kind: SchemaJobKind,
  clusterId: string,
  collection: string,
  total: number | null,
) {
  const now = new Date().toISOString();
  return {
    id: `job_${nextId()}`,
    kind,
    status: 'running',
    clusterId,
    input: { collection },
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
 * Runs validator checks and collection drops in the background, a chunk at a time, saving progress after each
 * chunk. A job saves only while it is `running`, so a cancel stops it at its next save. A starting server takes
 * up the jobs a stop left unfinished (on PostgreSQL, those no instance saved for `STALE_JOB_MS`), from the start
 * for a check and where it was for a drop (its cutoff is its creation time).
 */
export class SchemaJobs {
  private readonly running = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly storage: Storage,
    private readonly guards: SchemaGuards,
    private readonly log: FastifyBaseLogger,
  ) {}

  async resumeUnfinished(): Promise<void> {
    const shared = this.storage.engine !== 'sqlite';
    for (const kind of ['validator.check', 'collection.drop'] as const) {
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
    const work = job.kind === 'validator.check' ? this.check(job) : this.drop(job);
    const run = work
      .catch(async (error: unknown) => {
        this.log.error({ err: error, jobId: job.id }, `${job.kind} job stopped`);
        await this.finish(job, { failure: { code: 'internal', message: 'The job stopped on an error' } });
      })
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

  private async check(job: JobRecord): Promise<void> {
    const collection = job.input.collection as string;
    const validator = await this.storage.schema.getValidator(job.clusterId, collection);
    if (!validator) {
      await this.finish(job, {
        failure: { code: 'not_found', message: `Collection "${collection}" has no validator any more` },
      });
      return;
    }
    const matches = await compileSchema(JSON.parse(validator.schema) as object);
    const total = job.progress?.total ?? null;
    let checked = 0;
    let failing = 0;
    const samples: { _id: string; errors: { path: string; message: string }[] }[] = [];
    let after = '';
    for (;;) {
      if (this.closed) return;
      const rows = await this.storage.schema.documentsAfter(job.clusterId, collection, after, CHECK_CHUNK);
      for (const row of rows) {
        const errors = matches(JSON.parse(row.data));
        if (!errors) continue;
        failing++;
        if (samples.length < VALIDATOR_CHECK_SAMPLES) samples.push({ _id: row.id, errors });
      }
      checked += rows.length;
      if (rows.length < CHECK_CHUNK) break;
      after = rows.at(-1)!.id;
      if (!(await this.save(job, { progress: { done: checked, total } }))) return;
      // Validation is synchronous work: let requests in between chunks.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await this.finish(job, {
      progress: { done: checked, total: Math.max(total ?? 0, checked) },
      result: { checked, failing, samples },
    });
  }

  private async drop(job: JobRecord): Promise<void> {
    const collection = job.input.collection as string;
    const cutoff = job.createdAt;
    await this.dropSchema(job.clusterId, collection);
    let removed = job.progress?.done ?? 0;
    const total = job.progress?.total ?? null;
    for (;;) {
      if (this.closed) return;
      const step = await this.storage.schema.purgeDocuments(job.clusterId, collection, cutoff, DROP_CHUNK);
      if (step === 0) break;
      removed += step;
      const progress = { done: removed, total };
      if (!(await this.save(job, { progress, counts: { rows: removed, inserted: 0, failed: 0 } }))) return;
    }
    await this.storage.schema.purgeEvents(job.clusterId, collection, cutoff);
    await this.finish(job, {
      progress: { done: removed, total: removed },
      counts: { rows: removed, inserted: 0, failed: 0 },
    });
  }

  /** A drop's first step: the validator and the indexes (a resumed drop finds them gone already). */
  async dropSchema(clusterId: string, collection: string): Promise<void> {
    await this.storage.schema.deleteValidator(clusterId, collection);
    this.guards.forget(clusterId, collection);
    for (const index of await this.storage.schema.listIndexes(clusterId, collection))
      await this.storage.schema.dropIndex(clusterId, collection, index.name);
  }

  private save(job: JobRecord, change: Partial<JobRecord>): Promise<boolean> {
    Object.assign(job, change, { updatedAt: new Date().toISOString() });
    return this.storage.jobs.save(job);
  }

  /** Ends the job: `failed` with a failure, else `succeeded`. */
  private async finish(job: JobRecord, change: Partial<JobRecord>): Promise<void> {
    const now = new Date().toISOString();
    await this.save(job, { ...change, status: change.failure ? 'failed' : 'succeeded', finishedAt: now });
  }
}
