/** A cluster's backup schedule as stored. */
export interface BackupScheduleRow {
  clusterId: string;
  cron: string;
  retain: number;
  nextRunAt: string | null;
  lastRunAt: string | null;
}

/** Backup schedules, one per cluster, and the claim of their due ticks. */
export interface BackupScheduleStore {
  find(clusterId: string): Promise<BackupScheduleRow | null>;
  /** Writes the cluster's schedule, replacing the one it had. */
  put(row: BackupScheduleRow): Promise<void>;
  /** Removes the cluster's schedule; false when it had none. */
  delete(clusterId: string): Promise<boolean>;
  /** Whether any cluster has a schedule (the cron parser is loaded only then). */
  any(): Promise<boolean>;
  /**
   * The schedules due at `now` of running clusters (up to `limit`), each claimed by moving its `nextRunAt` to
   * `next(schedule)` in a compare-and-set on the `nextRunAt` read, as triggers' ticks are: of instances polling
   * together, exactly one claims a tick.
   */
  claimDue(
    now: string,
    next: (row: BackupScheduleRow) => string | null,
    limit: number,
  ): Promise<BackupScheduleRow[]>;
}
