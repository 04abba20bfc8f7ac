import type {
  Backup,
  BackupList,
  BackupSchedule,
  BackupScheduleUpdate,
  DeletedResponse,
  Job,
} from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';
import { segment } from '../internal/utils.js';

/** Which cluster a backup call acts on. */
export interface BackupClusterParams {
  /** A cluster you are a member of; your default cluster when left out. */
  clusterId?: string;
}

/** Where `client.backups.restore()` writes. */
export interface BackupRestoreParams {
  /** The cluster to restore into; the backup's own cluster when left out. */
  targetClusterId?: string;
}

function backupPath(id: string, suffix = ''): string {
  return `/api/backups/${segment(id, 'backup id')}${suffix}`;
}

/** `/api/backups`: backups of a cluster, their archives and restores. Session token only. */
export class Backups extends APIResource {
  /**
   * Backs up a cluster: a snapshot of its collections, documents, validators and indexes. A cluster of up to
   * 10,000 documents answers `succeeded`; a larger one `queued`, written by a `backup` job.
   * @example const backup = await client.backups.create();
   */
  create(params: BackupClusterParams = {}, options?: RequestOptions): APIPromise<Backup> {
    return this._client.post('/api/backups', { ...options, body: params });
  }

  /**
   * The backups of a cluster, newest first.
   * @example const { data } = await client.backups.list();
   */
  list(params: BackupClusterParams = {}, options?: RequestOptions): APIPromise<BackupList> {
    return this._client.get('/api/backups', { ...options, query: { clusterId: params.clusterId } });
  }

  /** One backup; NotFoundError when it is not of a cluster you are a member of. */
  get(id: string, options?: RequestOptions): APIPromise<Backup> {
    return this._client.get(backupPath(id), options);
  }

  /** Deletes a backup and its archive. */
  delete(id: string, options?: RequestOptions): APIPromise<DeletedResponse> {
    return this._client.delete(backupPath(id), options);
  }

  /**
   * The archive (`application/gzip`) as a fetch `Response` whose body is not read yet: stream it to a file.
   * ConflictError while the backup is not written.
   * @example
   * const res = await client.backups.download(backup._id);
   * await pipeline(Readable.fromWeb(res.body!), createWriteStream('backup.ndjson.gz'));
   */
  download(id: string, options?: RequestOptions): Promise<Response> {
    return this._client.getBinary(backupPath(id, '/download'), options);
  }

  /**
   * Restores a backup into its own cluster or `targetClusterId`: each collection of the archive replaces the
   * target's collection of that name, in one transaction. Answers the `restore` job; a damaged archive fails it
   * with `failure.code` `invalid_archive` and nothing changed.
   * @example await client.jobs.wait((await client.backups.restore(backup._id))._id);
   */
  restore(id: string, params: BackupRestoreParams = {}, options?: RequestOptions): APIPromise<Job> {
    return this._client.post(backupPath(id, '/restore'), { ...options, body: params });
  }

  /**
   * A cluster's backup schedule; `cron` null when it has none.
   * @example const { cron, retain, nextRunAt } = await client.backups.getSchedule();
   */
  getSchedule(params: BackupClusterParams = {}, options?: RequestOptions): APIPromise<BackupSchedule> {
    return this._client.get('/api/backups/schedule', { ...options, query: { clusterId: params.clusterId } });
  }

  /**
   * Backs a cluster up on every tick of `cron` (UTC) and keeps its newest `retain` succeeded backups; `cron`
   * null removes the schedule.
   * @example await client.backups.setSchedule({ cron: '0 3 * * *', retain: 7 });
   */
  setSchedule(params: BackupScheduleUpdate, options?: RequestOptions): APIPromise<BackupSchedule> {
    return this._client.put('/api/backups/schedule', { ...options, body: params });
  }
}
