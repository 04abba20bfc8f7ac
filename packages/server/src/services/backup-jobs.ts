import { MAX_INDEXES_PER_COLLECTION } from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Notifier } from '../notifications/notifier.js';
import type { BackupRow, RestoreEntry } from '../storage/backups.js';
import type { JobRecord } from '../storage/jobs.js';
import type { Storage } from '../storage/types.js';
import { InvalidArchive, type OpenArchive, writeArchive } from './backup-archive.js';
import { type ArchiveSummary, fileChecksum, restoreEntries } from './backup-archive-read.js';
import { ArchiveMissing, type ArchiveStorage } from './backup-storage.js';
import { nextId } from './document-operations.js';
import { JobRunner, newJobRecord } from './job-runner.js';
import type { SchemaGuards } from './schema-guards.js';

/** How often a backup saves its progress (and so learns of a cancel); well under `STALE_JOB_MS`. */
const SAVE_EVERY_MS = 1000;

/** Thrown inside a backup's snapshot or a restore's entries when its job was cancelled (its save refused). */
class Stopped extends Error {}

/**
 * Runs backups and restores in the background. A backup reads one snapshot of its cluster and streams it to its
 * archive (a file of the data directory, or an S3 object); a restore reads the archive once, the storage writing
 * its documents while it is checked, swaps them in for the target's collections at once, then builds the
 * archive's indexes. A starting server runs the jobs a stop left unfinished again from their
 * start (on PostgreSQL, those no instance saved for `STALE_JOB_MS`): a backup takes a new snapshot, and a
 * restore, which changed nothing or everything, swaps again.
 */
export class BackupJobs extends JobRunner {
  private cleaning: Promise<void> | undefined;

  constructor(
    storage: Storage,
    private readonly guards: SchemaGuards,
    readonly archives: ArchiveStorage,
    log: FastifyBaseLogger,
    private readonly notifier?: Notifier,
  ) {
    super(storage, log, ['backup', 'restore']);
  }

  /**
   * Records a new backup of the cluster, `queued`, and starts its job; `retain` (of a scheduled backup) deletes
   * the cluster's oldest succeeded backups past that many once it is written. `run` settles when the job stops.
   */
  async begin(clusterId: string, retain?: number): Promise<{ row: BackupRow; run: Promise<void> }> {
    const suffix = nextId();
    const row: BackupRow = {
      id: `bkp_${suffix}`,
      clusterId,
      status: 'queued',
      createdAt: new Date().toISOString(),
      completedAt: null,
      documentCount: 0,
      sizeBytes: 0,
      checksum: null,
    };
    await this.storage.backups.create(row);
    const input = retain === undefined ? { backupId: row.id } : { backupId: row.id, retain };
    const job = newJobRecord('backup', `job_${suffix}`, clusterId, input);
    await this.storage.jobs.create(job);
    return { row, run: this.start(job) };
  }

  /** Takes up unfinished jobs; first, in the background, removes what restores stopped by a crash left behind. */
  override async resumeUnfinished(): Promise<void> {
    if (!this.cleaning)
      this.cleaning = this.storage.backups
        .cleanUp()
        .catch((error: unknown) => this.log.error({ err: error }, 'clean-up of stopped restores failed'));
    await super.resumeUnfinished();
  }

  override async close(): Promise<void> {
    await super.close();
    await this.cleaning;
  }

  /** Deletes the backup's record and its archive; false when there was no record. */
  async remove(backupId: string): Promise<boolean> {
    const removed = await this.storage.backups.delete(backupId);
    await this.archives.remove(backupId);
    return removed;
  }

  protected work(job: JobRecord): Promise<void> {
    return job.kind === 'backup' ? this.backup(job) : this.restore(job);
  }

  /** A backup that stopped on an error failed too. */
  protected override async stopped(job: JobRecord, error: unknown): Promise<void> {
    await super.stopped(job, error);
    if (job.kind === 'backup') await this.failBackup(job.input.backupId as string);
  }

  private async backup(job: JobRecord): Promise<void> {
    const backupId = job.input.backupId as string;
    const backup = await this.storage.backups.find(backupId);
    if (!backup) {
      await this.finish(job, { failure: { code: 'not_found', message: `Backup "${backupId}" is gone` } });
      return;
    }
    await this.storage.backups.update({ ...backup, status: 'running' });
    let written: Awaited<ReturnType<typeof writeArchive>>;
    let lastSave = 0;
    try {
      written = await this.storage.backups.snapshot(job.clusterId, async (reader) =>
        writeArchive(
          reader,
          { clusterId: job.clusterId, createdAt: backup.createdAt },
          await this.archives.create(backupId),
          async (done) => {
            if (this.closed) throw new Stopped();
            // A save is a durable write (a sync on SQLite): one per chunk would bound the backup's pace.
            if (Date.now() - lastSave < SAVE_EVERY_MS) return;
            lastSave = Date.now();
            if (!(await this.save(job, { progress: { done, total: null } }))) throw new Stopped();
          },
        ),
      );
    } catch (error) {
      if (!(error instanceof Stopped)) throw error;
      // Cancelled: the backup failed; closing: the next start writes it again.
      if (!this.closed) await this.failBackup(backupId, true);
      return;
    }
    const completedAt = new Date().toISOString();
    const done: BackupRow = {
      ...backup,
      status: 'succeeded',
      completedAt,
      documentCount: written.documents,
      sizeBytes: written.sizeBytes,
      checksum: written.checksum,
    };
    // Deleted while it ran: its archive goes too.
    if (!(await this.storage.backups.update(done))) await this.archives.remove(backupId);
    await this.finish(job, {
      progress: { done: written.documents, total: written.documents },
      bytes: written.sizeBytes,
    });
    if (typeof job.input.retain === 'number') await this.prune(job.clusterId, job.input.retain);
  }

  /** Deletes the cluster's succeeded backups past the newest `retain`. */
  private async prune(clusterId: string, retain: number): Promise<void> {
    const succeeded = (await this.storage.backups.list(clusterId)).filter((b) => b.status === 'succeeded');
    for (const old of succeeded.slice(retain)) await this.remove(old.id);
  }

  private async restore(job: JobRecord): Promise<void> {
    const backupId = job.input.backupId as string;
    const target = job.input.targetClusterId as string;
    const backup = await this.storage.backups.find(backupId);
    if (backup?.status !== 'succeeded') {
      await this.finish(job, { failure: { code: 'not_found', message: `Backup "${backupId}" is gone` } });
      return;
    }
    const open = () => this.archives.open(backupId);
    const total = backup.documentCount;
    if (!(await this.save(job, { progress: { done: 0, total } }))) return;
    // The archive is read once: the storage writes the entries as they come, and the checks that end the
    // iteration (counts, the manifest's SHA-256, the file's checksum) throw before it swaps anything in.
    const archive: ArchiveSummary = { collections: [], manifest: null };
    let swapped: { collections: number; documents: number };
    try {
      swapped = await this.storage.backups.replaceCollections(
        target,
        this.saving(job, restoreEntries(open, backup.checksum, archive)),
      );
    } catch (error) {
      if (error instanceof Stopped) return;
      const reason = await invalidReason(error, open, backup.checksum);
      if (reason === null) throw error;
      await this.finish(job, { failure: { code: 'invalid_archive', message: reason } });
      return;
    }
    for (const collection of archive.collections) this.guards.forget(target, collection.name);
    let indexes = 0;
    const failures: string[] = [];
    for (const collection of archive.collections) {
      const wanted = new Map(collection.indexes.map((index) => [index.name, index]));
      for (const index of await this.storage.schema.listIndexes(target, collection.name)) {
        const same = wanted.get(index.name);
        if (
          same &&
          same.unique === index.unique &&
          JSON.stringify(same.fields) === JSON.stringify(index.fields)
        ) {
          wanted.delete(index.name);
          indexes++;
        } else await this.storage.schema.dropIndex(target, collection.name, index.name);
      }
      for (const index of wanted.values()) {
        const built = await this.storage.schema.createIndex(
          { clusterId: target, collection: collection.name, ...index },
          MAX_INDEXES_PER_COLLECTION,
        );
        if (built.ok) indexes++;
        else failures.push(`${collection.name}.${index.name} (${built.reason})`);
      }
    }
    await this.finish(job, {
      progress: { done: swapped.documents, total },
      counts: { rows: swapped.documents, inserted: swapped.documents, failed: 0 },
      result: { collections: swapped.collections, documents: swapped.documents, indexes },
      ...(failures.length > 0
        ? {
            failure: {
              code: 'index_failed',
              message: `The documents are restored; these indexes could not be built: ${failures.join(', ')}`,
            },
          }
        : {}),
    });
  }

  /**
   * The entries, passed on; every `SAVE_EVERY_MS` the documents so far are saved as the job's progress, and a
   * cancel (the save refused) or a closing server throws `Stopped`, so the storage drops what it wrote.
   */
  private async *saving(job: JobRecord, entries: AsyncIterable<RestoreEntry>): AsyncGenerator<RestoreEntry> {
    let documents = 0;
    let lastSave = Date.now();
    for await (const entry of entries) {
      if (entry.type === 'document' && ++documents % 1000 === 0 && Date.now() - lastSave >= SAVE_EVERY_MS) {
        if (this.closed) throw new Stopped();
        lastSave = Date.now();
        if (!(await this.save(job, { progress: { done: documents, total: job.progress?.total ?? null } })))
          throw new Stopped();
      }
      yield entry;
    }
  }

  /** Marks the backup failed and tells its cluster's owner (a backup cancelled on purpose is not news). */
  private async failBackup(backupId: string, cancelled = false): Promise<void> {
    const backup = await this.storage.backups.find(backupId);
    if (!backup || backup.status === 'succeeded') return;
    await this.storage.backups.update({ ...backup, status: 'failed', completedAt: new Date().toISOString() });
    const cluster = cancelled ? null : await this.storage.clusters.find(backup.clusterId);
    if (cluster)
      await this.notifier?.raise(cluster.ownerId, 'backup_failed', {
        title: 'Backup failed',
        body: `The backup ${backupId} of cluster "${cluster.name}" failed; its data is as it was, and no archive was kept.`,
        link: `/api/backups/${backupId}`,
        data: { backupId, clusterId: backup.clusterId },
      });
  }
}

/**
 * Why a restore's error means its archive cannot be restored, or null when it does not: the checks of the
 * archive, a missing file, or (for an error of the storage, say invalid JSON refused) a file that no longer
 * matches its checksum.
 */
async function invalidReason(
  error: unknown,
  open: OpenArchive,
  checksum: string | null,
): Promise<string | null> {
  if (error instanceof InvalidArchive) return error.message;
  if (error instanceof ArchiveMissing) return 'The archive file is missing';
  if (checksum === null) return null;
  const actual = await fileChecksum(open).catch(() => null);
  return actual === checksum ? null : 'The archive does not match its checksum: it was changed or cut short';
}
