import type { BackupScheduleUpdate } from '@dataplatform/contract';
import type { BackupScheduleRow } from '../storage/backup-schedules.js';
import type { Storage } from '../storage/types.js';
import { checkSchedule, loadCron, nextTick } from '../triggers/cron.js';
import type { TickSource } from '../triggers/scheduler.js';
import { type Clock, iso } from '../webhooks/clock.js';
import type { BackupJobs } from './backup-jobs.js';
import type { BackupCaller, BackupService } from './backups.js';

/** A schedule as the API answers it; `cron` null when the cluster has none. */
function scheduleOf(clusterId: string, row: BackupScheduleRow | null) {
  return {
    clusterId,
    cron: row?.cron ?? null,
    retain: row?.retain ?? null,
    nextRunAt: row?.nextRunAt ?? null,
    lastRunAt: row?.lastRunAt ?? null,
  };
}

const nextOf = (cron: string, after: string) => nextTick({ type: 'schedule', cron }, after);

/** Scheduled backups of clusters (`/api/backups/schedule`), and the tick source that starts them. */
export class BackupSchedules implements TickSource {
  constructor(
    private readonly storage: Storage,
    private readonly backups: BackupService,
    private readonly jobs: BackupJobs,
    private readonly clock: Clock,
  ) {}

  async get(caller: BackupCaller, clusterId: string | undefined) {
    const cluster = await this.backups.clusterOf(caller, clusterId, 'read');
    return scheduleOf(cluster, await this.storage.backupSchedules.find(cluster));
  }

  /** Sets (or with `cron` null removes) the cluster's schedule; its next tick is counted from now. */
  async set(caller: BackupCaller, body: BackupScheduleUpdate) {
    const cluster = await this.backups.clusterOf(caller, body.clusterId, 'backups');
    if (body.cron === null) {
      await this.storage.backupSchedules.delete(cluster);
      return scheduleOf(cluster, null);
    }
    await loadCron();
    checkSchedule({ type: 'schedule', cron: body.cron }, '');
    const previous = await this.storage.backupSchedules.find(cluster);
    const row: BackupScheduleRow = {
      clusterId: cluster,
      cron: body.cron,
      retain: body.retain,
      nextRunAt: nextOf(body.cron, iso(this.clock.now())),
      lastRunAt: previous?.lastRunAt ?? null,
    };
    await this.storage.backupSchedules.put(row);
    return scheduleOf(cluster, row);
  }

  hasSchedules(): Promise<boolean> {
    return this.storage.backupSchedules.any();
  }

  /** Starts a backup of each cluster whose tick this instance claimed (the job runs in the background). */
  async fire(now: string, limit: number): Promise<void> {
    const claimed = await this.storage.backupSchedules.claimDue(now, (row) => nextOf(row.cron, now), limit);
    for (const row of claimed) await this.jobs.begin(row.clusterId, row.retain);
  }
}
