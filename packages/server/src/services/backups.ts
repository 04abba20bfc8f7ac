import type { Readable } from 'node:stream';
import type { ClusterAction } from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import type { BackupRow } from '../storage/backups.js';
import type { Storage } from '../storage/types.js';
import type { BackupJobs } from './backup-jobs.js';
import { ArchiveMissing } from './backup-storage.js';
import { sessionCluster } from './cluster-access.js';
import { nextId } from './document-operations.js';
import { newJobRecord } from './job-runner.js';
import { publicJob } from './jobs.js';

/** Who calls a backup route: a signed-in user. */
export interface BackupCaller {
  sessionId: string;
  userId: string;
}

/** A backup as the API answers it. */
function backupOf(row: BackupRow) {
  return {
    _id: row.id,
    clusterId: row.clusterId,
    status: row.status,
    createdAt: row.createdAt,
    completedAt: row.completedAt,
    documentCount: Number(row.documentCount),
    sizeBytes: Number(row.sizeBytes),
    checksum: row.checksum,
  };
}

/** A cluster of up to this many documents is backed up (or restored) before the answer; a larger one in the background. */
const AT_ONCE = 10_000;

const notFound = (id: string) => new ApiError('not_found', `Backup "${id}" not found`);

/** Backups of clusters and their restores, for the dashboard (`/api/backups`). */
export class BackupService {
  constructor(
    private readonly storage: Storage,
    private readonly jobs: BackupJobs,
  ) {}

  /**
   * The cluster a session acts on, when the user's role there allows `action`: the one named, else the default;
   * 404 `not_found` when the user is no member of it, 403 `forbidden` when the role does not allow it.
   */
  async clusterOf(
    caller: BackupCaller,
    clusterId: string | undefined,
    action: ClusterAction,
  ): Promise<string> {
    return sessionCluster(this.storage, caller.sessionId, clusterId, action);
  }

  /** The backup, when the caller is a member of its cluster whose role allows `action`; else 404 (or 403). */
  private async backupOf(caller: BackupCaller, id: string, action: ClusterAction): Promise<BackupRow> {
    const backup = await this.storage.backups.find(id);
    if (!backup) throw notFound(id);
    try {
      await this.clusterOf(caller, backup.clusterId, action);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') throw notFound(id);
      throw error;
    }
    return backup;
  }

  async create(caller: BackupCaller, clusterId: string | undefined) {
    const cluster = await this.clusterOf(caller, clusterId, 'backups');
    const { row, run } = await this.jobs.begin(cluster);
    // The collections' counts alone: `schema.collections` also sums the documents' sizes, reading every one.
    if ((await this.storage.backups.documentCount(cluster)) > AT_ONCE) return backupOf(row);
    await run;
    return backupOf((await this.storage.backups.find(row.id)) ?? row);
  }

  async list(caller: BackupCaller, clusterId: string | undefined) {
    const cluster = await this.clusterOf(caller, clusterId, 'read');
    return { data: (await this.storage.backups.list(cluster)).map(backupOf) };
  }

  async get(caller: BackupCaller, id: string) {
    return backupOf(await this.backupOf(caller, id, 'read'));
  }

  async delete(caller: BackupCaller, id: string) {
    await this.backupOf(caller, id, 'backups');
    if (!(await this.jobs.remove(id))) throw notFound(id);
    return { _id: id, deleted: true as const };
  }

  /** The archive of a written backup, as a stream; 409 `conflict` before it is written. */
  async download(
    caller: BackupCaller,
    id: string,
  ): Promise<{ stream: Readable; sizeBytes: number; name: string }> {
    const backup = await this.backupOf(caller, id, 'read');
    if (backup.status !== 'succeeded')
      throw new ApiError('conflict', `Backup "${id}" is ${backup.status}: it has no archive to download`);
    const stream = await this.jobs.archives.open(id).catch((error: unknown) => {
      if (error instanceof ArchiveMissing)
        throw new ApiError('not_found', `The archive of backup "${id}" is missing`);
      throw error;
    });
    return { stream, sizeBytes: Number(backup.sizeBytes), name: `${id}.ndjson.gz` };
  }

  /** Starts a restore of the backup into `targetClusterId` (else its own cluster); both need `backups`. */
  async restore(caller: BackupCaller, id: string, targetClusterId: string | undefined) {
    const backup = await this.backupOf(caller, id, 'backups');
    const target = await this.clusterOf(caller, targetClusterId ?? backup.clusterId, 'backups');
    if (backup.status !== 'succeeded')
      throw new ApiError('conflict', `Backup "${id}" is ${backup.status}: it has no archive to restore`);
    const job = newJobRecord('restore', `job_${nextId()}`, target, { backupId: id, targetClusterId: target });
    await this.storage.jobs.create(job);
    const run = this.jobs.start(job);
    if (Number(backup.documentCount) > AT_ONCE) return publicJob(job);
    await run;
    return publicJob((await this.storage.jobs.find(job.id)) ?? job);
  }
}
