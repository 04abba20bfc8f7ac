import type { Sql } from 'postgres';
import { JOB_COLUMNS, type JobRow, jobOf, progressValues } from '../job-rows.js';
import type { JobRecord, JobStatus, JobStore } from '../jobs.js';

/** Jobs on PostgreSQL. */
export class PostgresJobs implements JobStore {
  constructor(private readonly sql: Sql) {}

  async create(job: JobRecord): Promise<void> {
    const v = progressValues(job);
    await this
      .sql`INSERT INTO jobs (id, cluster_id, kind, status, input, counts, bytes, errors, failure, progress, result, created_at, started_at, updated_at, finished_at)
      VALUES (${job.id}, ${job.clusterId}, ${job.kind}, ${v.status}, ${v.input}, ${v.counts}, ${v.bytes},
              ${v.errors}, ${v.failure}, ${v.progress}, ${v.result}, ${job.createdAt}, ${v.startedAt}, ${v.updatedAt}, ${v.finishedAt})`;
  }

  async find(id: string): Promise<JobRecord | null> {
    const [row] = await this.sql<JobRow[]>`SELECT ${this.sql.unsafe(JOB_COLUMNS)} FROM jobs WHERE id = ${id}`;
    return row ? jobOf(row) : null;
  }

  async listByCluster(clusterId: string, page: { limit: number; skip: number }) {
    const [rows, [count]] = await Promise.all([
      this.sql<JobRow[]>`SELECT ${this.sql.unsafe(JOB_COLUMNS)} FROM jobs WHERE cluster_id = ${clusterId}
        ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.skip}`,
      this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM jobs WHERE cluster_id = ${clusterId}`,
    ]);
    return { rows: rows.map(jobOf), total: count!.n };
  }

  async listByOwner(userId: string, page: { limit: number; skip: number }) {
    const owned = this.owned(userId);
    const [rows, [count]] = await Promise.all([
      this.sql<JobRow[]>`SELECT ${this.sql.unsafe(JOB_COLUMNS)} FROM jobs WHERE ${owned}
        ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.skip}`,
      this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM jobs WHERE ${owned}`,
    ]);
    return { rows: rows.map(jobOf), total: count!.n };
  }

  async isOwnedBy(jobId: string, userId: string): Promise<boolean> {
    const rows = await this.sql`SELECT 1 FROM jobs WHERE id = ${jobId} AND ${this.owned(userId)}`;
    return rows.length === 1;
  }

  /**
   * Jobs of the clusters the user is a member of, and of those they created (a deleted cluster's deletion job
   * stays visible to its creator after its members are gone).
   */
  private owned(userId: string) {
    return this.sql`cluster_id IN (SELECT cluster_id FROM cluster_members WHERE user_id = ${userId}
      UNION SELECT id FROM clusters WHERE owner_id = ${userId})`;
  }

  async unfinished(kind: JobRecord['kind']): Promise<JobRecord[]> {
    const rows = await this.sql<JobRow[]>`SELECT ${this.sql.unsafe(JOB_COLUMNS)} FROM jobs
      WHERE kind = ${kind} AND status IN ('queued', 'running') ORDER BY created_at, id`;
    return rows.map(jobOf);
  }

  async save(job: JobRecord): Promise<boolean> {
    const v = progressValues(job);
    const result = await this
      .sql`UPDATE jobs SET input = ${v.input}, status = ${v.status}, counts = ${v.counts}, bytes = ${v.bytes},
        errors = ${v.errors}, failure = ${v.failure}, progress = ${v.progress}, result = ${v.result}, started_at = ${v.startedAt}, updated_at = ${v.updatedAt},
        finished_at = ${v.finishedAt}
      WHERE id = ${job.id} AND status = 'running'`;
    return result.count === 1;
  }

  async restart(id: string, expected: { status: JobStatus; updatedAt: string }, now: string) {
    const result = await this
      .sql`UPDATE jobs SET status = 'running', failure = NULL, started_at = ${now}, finished_at = NULL, updated_at = ${now}
      WHERE id = ${id} AND status = ${expected.status} AND updated_at = ${expected.updatedAt}`;
    return result.count === 1;
  }

  async cancel(id: string, failure: { code: string; message: string }, now: string): Promise<boolean> {
    const result = await this.sql`UPDATE jobs SET status = 'cancelled', failure = ${JSON.stringify(failure)},
        finished_at = ${now}, updated_at = ${now}
      WHERE id = ${id} AND status IN ('queued', 'running')`;
    return result.count === 1;
  }
}
