import type { Sql } from 'postgres';
import type { BackupScheduleRow, BackupScheduleStore } from '../backup-schedules.js';

const COLUMNS = `s.cluster_id AS "clusterId", s.cron, s.retain, s.next_run_at AS "nextRunAt", s.last_run_at AS "lastRunAt"`;

/** Backup schedules on PostgreSQL. */
export class PostgresBackupSchedules implements BackupScheduleStore {
  constructor(private readonly sql: Sql) {}

  async find(clusterId: string): Promise<BackupScheduleRow | null> {
    const [row] = await this.sql.unsafe<BackupScheduleRow[]>(
      `SELECT ${COLUMNS} FROM backup_schedules s WHERE s.cluster_id = $1`,
      [clusterId],
    );
    return row ?? null;
  }

  async put(row: BackupScheduleRow): Promise<void> {
    await this.sql`
      INSERT INTO backup_schedules (cluster_id, cron, retain, next_run_at, last_run_at)
      VALUES (${row.clusterId}, ${row.cron}, ${row.retain}, ${row.nextRunAt}, ${row.lastRunAt})
      ON CONFLICT (cluster_id) DO UPDATE SET cron = excluded.cron, retain = excluded.retain,
        next_run_at = excluded.next_run_at`;
  }

  async delete(clusterId: string): Promise<boolean> {
    return (await this.sql`DELETE FROM backup_schedules WHERE cluster_id = ${clusterId}`).count === 1;
  }

  async any(): Promise<boolean> {
    return (await this.sql`SELECT 1 FROM backup_schedules LIMIT 1`).length > 0;
  }

  async claimDue(
    now: string,
    next: (row: BackupScheduleRow) => string | null,
    limit: number,
  ): Promise<BackupScheduleRow[]> {
    // As triggers' ticks: SKIP LOCKED splits the due rows between instances polling together, and the
    // compare-and-set on next_run_at makes a tick another instance moved on unclaimable.
    return this.sql.begin(async (tx) => {
      const due = await tx.unsafe<BackupScheduleRow[]>(
        `SELECT ${COLUMNS} FROM backup_schedules s JOIN clusters c ON c.id = s.cluster_id
         WHERE s.next_run_at IS NOT NULL AND s.next_run_at <= $1 AND c.status = 'running'
         ORDER BY s.next_run_at LIMIT $2 FOR UPDATE OF s SKIP LOCKED`,
        [now, limit],
      );
      const claimed: BackupScheduleRow[] = [];
      for (const row of due) {
        const result = await tx`
          UPDATE backup_schedules SET next_run_at = ${next(row)}, last_run_at = ${now}
          WHERE cluster_id = ${row.clusterId} AND next_run_at = ${row.nextRunAt}`;
        if (result.count === 1) claimed.push(row);
      }
      return claimed;
    });
  }
}
