import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_INDEXES_PER_COLLECTION } from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { BackupRow } from '../storage/backups.js';
import type { JobRecord } from '../storage/jobs.js';
import type { Storage } from '../storage/types.js';
import { InvalidArchive, restoreEntries, verifyArchive, writeArchive } from './backup-archive.js';
import { JobRunner } from './job-runner.js';
import type { SchemaGuards } from './schema-guards.js';

/** Thrown inside a backup's snapshot when its job was cancelled (its save refused). */
class Stopped extends Error {}

/** A new job of a backup or restore (or another runner's kind), running (its runner starts at once). */
export function newBackupJob(
  kind: JobRecord['kind'],
  id: string,
  clusterId: string,
  input: Record<string, unknown>,
) {
  const now = new Date().toISOString();
  return {
    id,
    kind,
    status: 'running',
    clusterId,
    input,
    counts: { rows: 0, inserted: 0, failed: 0 },
    bytes: 0,
    errors: [],
    failure: null,
    progress: { done: 0, total: null },
    result: null,
    createdAt: now,
    startedAt: now,
    updatedAt: now,
    finishedAt: null,
  } satisfies JobRecord;
}

/**
 * Runs backups and restores in the background. A backup reads one snapshot of its cluster and streams it to
 * `<dir>/<backup id>.ndjson.gz`; a restore checks the archive, swaps the target's collections in one transaction,
 * then builds the archive's indexes. A starting server runs the jobs a stop left unfinished again from their
 * start (on PostgreSQL, those no instance saved for `STALE_JOB_MS`): a backup takes a new snapshot, and a
 * restore, which changed nothing or everything, swaps again.
 */
export class BackupJobs extends JobRunner {
  constructor(
    storage: Storage,
    private readonly guards: SchemaGuards,
    readonly dir: string,
    log: FastifyBaseLogger,
  ) {
    super(storage, log, ['backup', 'restore']);
  }

  protected work(job: JobRecord): Promise<void> {
    return job.kind === 'backup' ? this.backup(job) : this.restore(job);
  }

  /** A backup whose job stopped on an error failed too. */
  protected override async stopped(job: JobRecord, error: unknown): Promise<void> {
    await super.stopped(job, error);
    if (job.kind === 'backup') await this.failBackup(job.input.backupId as string);
  }

  /** The archive file of a backup. */
  fileOf(backupId: string): string {
    return join(this.dir, `${backupId}.ndjson.gz`);
  }

  private async backup(job: JobRecord): Promise<void> {
    const backupId = job.input.backupId as string;
    const backup = await this.storage.backups.find(backupId);
    if (!backup) {
      await this.finish(job, { failure: { code: 'not_found', message: `Backup "${backupId}" is gone` } });
      return;
    }
    await this.storage.backups.update({ ...backup, status: 'running' });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileOf(backupId);
    let written: Awaited<ReturnType<typeof writeArchive>>;
    try {
      written = await this.storage.backups.snapshot(job.clusterId, (reader) =>
        writeArchive(
          reader,
          { clusterId: job.clusterId, createdAt: backup.createdAt },
          file,
          async (done) => {
            if (this.closed || !(await this.save(job, { progress: { done, total: null } })))
              throw new Stopped();
          },
        ),
      );
    } catch (error) {
      if (!(error instanceof Stopped)) throw error;
      // Cancelled: the backup failed; closing: the next start writes it again.
      if (!this.closed) await this.failBackup(backupId);
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
    if (!(await this.storage.backups.update(done))) await rm(file, { force: true });
    await this.finish(job, {
      progress: { done: written.documents, total: written.documents },
      bytes: written.sizeBytes,
    });
  }

  private async restore(job: JobRecord): Promise<void> {
    const backupId = job.input.backupId as string;
    const target = job.input.targetClusterId as string;
    const backup = await this.storage.backups.find(backupId);
    if (backup?.status !== 'succeeded') {
      await this.finish(job, { failure: { code: 'not_found', message: `Backup "${backupId}" is gone` } });
      return;
    }
    const file = this.fileOf(backupId);
    let archive: Awaited<ReturnType<typeof verifyArchive>>;
    try {
      archive = await verifyArchive(file, backup.checksum);
    } catch (error) {
      const reason =
        error instanceof InvalidArchive
          ? error.message
          : (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? 'The archive file is missing'
            : null;
      if (reason === null) throw error;
      await this.finish(job, { failure: { code: 'invalid_archive', message: reason } });
      return;
    }
    const total = archive.manifest.documents;
    if (!(await this.save(job, { progress: { done: 0, total } }))) return;
    const swapped = await this.storage.backups.replaceCollections(target, restoreEntries(file));
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

  private async failBackup(backupId: string): Promise<void> {
    const backup = await this.storage.backups.find(backupId);
    if (backup && backup.status !== 'succeeded')
      await this.storage.backups.update({
        ...backup,
        status: 'failed',
        completedAt: new Date().toISOString(),
      });
  }
}
