import type Database from 'better-sqlite3';
import type { BackupScheduleRow, BackupScheduleStore } from '../backup-schedules.js';

const COLUMNS =
  's.cluster_id AS clusterId, s.cron, s.retain, s.next_run_at AS nextRunAt, s.last_run_at AS lastRunAt';

/** Backup schedules on SQLite. */
export class SqliteBackupSchedules implements BackupScheduleStore {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      find: db.prepare<[string], BackupScheduleRow>(
        `SELECT ${COLUMNS} FROM backup_schedules s WHERE s.cluster_id = ?`,
      ),
      put: db.prepare<[BackupScheduleRow]>(
        `INSERT INTO backup_schedules (cluster_id, cron, retain, next_run_at, last_run_at)
         VALUES (@clusterId, @cron, @retain, @nextRunAt, @lastRunAt)
         ON CONFLICT (cluster_id) DO UPDATE SET cron = excluded.cron, retain = excluded.retain,
           next_run_at = excluded.next_run_at`,
      ),
      delete: db.prepare<[string]>('DELETE FROM backup_schedules WHERE cluster_id = ?'),
      any: db.prepare('SELECT 1 FROM backup_schedules LIMIT 1'),
      due: db.prepare<[string, number], BackupScheduleRow>(
        `SELECT ${COLUMNS} FROM backup_schedules s JOIN clusters c ON c.id = s.cluster_id
         WHERE s.next_run_at IS NOT NULL AND s.next_run_at <= ? AND c.status = 'running'
         ORDER BY s.next_run_at LIMIT ?`,
      ),
      claim: db.prepare(
        `UPDATE backup_schedules SET next_run_at = @next, last_run_at = @now
         WHERE cluster_id = @clusterId AND next_run_at = @due`,
      ),
    };
  }

  async find(clusterId: string): Promise<BackupScheduleRow | null> {
    return this.stmt.find.get(clusterId) ?? null;
  }

  async put(row: BackupScheduleRow): Promise<void> {
    this.stmt.put.run(row);
  }

  async delete(clusterId: string): Promise<boolean> {
    return this.stmt.delete.run(clusterId).changes === 1;
  }

  async any(): Promise<boolean> {
    return this.stmt.any.get() !== undefined;
  }

  async claimDue(
    now: string,
    next: (row: BackupScheduleRow) => string | null,
    limit: number,
  ): Promise<BackupScheduleRow[]> {
    return this.db
      .transaction(() =>
        this.stmt.due
          .all(now, limit)
          .filter(
            (row) =>
              this.stmt.claim.run({ clusterId: row.clusterId, due: row.nextRunAt, next: next(row), now })
                .changes === 1,
          ),
      )
      .immediate();
  }
}
