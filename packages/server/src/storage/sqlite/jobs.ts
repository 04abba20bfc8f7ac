import type Database from 'better-sqlite3';
import { JOB_COLUMNS, type JobRow, jobOf, progressValues } from '../job-rows.js';
import type { JobRecord, JobStatus, JobStore } from '../jobs.js';

// Jobs of the clusters the user is a member of, and of those they created (a deleted cluster's deletion job stays
// visible to its creator after its members are gone). Takes the user's id twice.
const OWNED =
  'cluster_id IN (SELECT cluster_id FROM cluster_members WHERE user_id = ? UNION SELECT id FROM clusters WHERE owner_id = ?)';

/** Jobs on SQLite. */
export class SqliteJobs implements JobStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO jobs (id, cluster_id, kind, status, input, counts, bytes, errors, failure, progress, result, created_at, started_at, updated_at, finished_at)
         VALUES (@id, @clusterId, @kind, @status, @input, @counts, @bytes, @errors, @failure, @progress, @result, @createdAt, @startedAt, @updatedAt, @finishedAt)`,
      ),
      find: db.prepare<[string], JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ?`),
      byCluster: db.prepare<[string, number, number], JobRow>(
        `SELECT ${JOB_COLUMNS} FROM jobs WHERE cluster_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      ),
      countByCluster: db.prepare<[string], { n: number }>(
        'SELECT COUNT(*) AS n FROM jobs WHERE cluster_id = ?',
      ),
      byOwner: db.prepare<[string, string, number, number], JobRow>(
        `SELECT ${JOB_COLUMNS} FROM jobs WHERE ${OWNED} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      ),
      countByOwner: db.prepare<[string, string], { n: number }>(
        `SELECT COUNT(*) AS n FROM jobs WHERE ${OWNED}`,
      ),
      owned: db.prepare<[string, string, string], { one: number }>(
        `SELECT 1 AS one FROM jobs WHERE id = ? AND ${OWNED}`,
      ),
      unfinished: db.prepare<[string], JobRow>(
        `SELECT ${JOB_COLUMNS} FROM jobs WHERE kind = ? AND status IN ('queued', 'running') ORDER BY created_at, id`,
      ),
      save: db.prepare(
        `UPDATE jobs SET input = @input, status = @status, counts = @counts, bytes = @bytes, errors = @errors, failure = @failure,
           progress = @progress, result = @result, started_at = @startedAt, updated_at = @updatedAt, finished_at = @finishedAt
         WHERE id = @id AND status = 'running'`,
      ),
      restart: db.prepare(
        `UPDATE jobs SET status = 'running', failure = NULL, started_at = @now, finished_at = NULL, updated_at = @now
         WHERE id = @id AND status = @status AND updated_at = @updatedAt`,
      ),
      cancel: db.prepare(
        `UPDATE jobs SET status = 'cancelled', failure = ?, finished_at = ?, updated_at = ?
         WHERE id = ? AND status IN ('queued', 'running')`,
      ),
    };
  }

  async create(job: JobRecord): Promise<void> {
    this.stmt.insert.run({
      id: job.id,
      clusterId: job.clusterId,
      kind: job.kind,
      createdAt: job.createdAt,
      ...progressValues(job),
    });
  }

  async find(id: string): Promise<JobRecord | null> {
    const row = this.stmt.find.get(id);
    return row ? jobOf(row) : null;
  }

  async listByCluster(clusterId: string, page: { limit: number; skip: number }) {
    const rows = this.stmt.byCluster.all(clusterId, page.limit, page.skip).map(jobOf);
    return { rows, total: this.stmt.countByCluster.get(clusterId)!.n };
  }

  async listByOwner(userId: string, page: { limit: number; skip: number }) {
    const rows = this.stmt.byOwner.all(userId, userId, page.limit, page.skip).map(jobOf);
    return { rows, total: this.stmt.countByOwner.get(userId, userId)!.n };
  }

  async isOwnedBy(jobId: string, userId: string): Promise<boolean> {
    return this.stmt.owned.get(jobId, userId, userId) !== undefined;
  }

  async unfinished(kind: JobRecord['kind']): Promise<JobRecord[]> {
    return this.stmt.unfinished.all(kind).map(jobOf);
  }

  async save(job: JobRecord): Promise<boolean> {
    return this.stmt.save.run({ id: job.id, ...progressValues(job) }).changes === 1;
  }

  async restart(id: string, expected: { status: JobStatus; updatedAt: string }, now: string) {
    return (
      this.stmt.restart.run({ now, id, status: expected.status, updatedAt: expected.updatedAt }).changes === 1
    );
  }

  async cancel(id: string, failure: { code: string; message: string }, now: string): Promise<boolean> {
    return this.stmt.cancel.run(JSON.stringify(failure), now, now, id).changes === 1;
  }
}
