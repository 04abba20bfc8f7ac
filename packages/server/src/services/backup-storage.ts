import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** An archive being written: bytes go to `stream`; `commit` makes it the backup's archive, `abort` drops it. */
export interface ArchiveUpload {
  stream: Writable;
  /** Once `stream` finished: waits until the archive is stored whole, then it is the one `open` reads. */
  commit(): Promise<void>;
  /** Drops what was written; the backup keeps no archive. */
  abort(): Promise<void>;
}

/** Thrown by `open` when a backup has no archive. */
export class ArchiveMissing extends Error {}

/** Where backup archives are kept: a directory, or S3-compatible storage. One archive per backup id. */
export interface ArchiveStorage {
  /** Starts writing the archive of a backup; it replaces none until `commit`. */
  create(backupId: string): Promise<ArchiveUpload>;
  /** The archive's bytes, from the start; `ArchiveMissing` when there is none. */
  open(backupId: string): Promise<Readable>;
  /** Removes the archive, if any. */
  remove(backupId: string): Promise<void>;
}

/** Archives as files `<dir>/<backup id>.ndjson.gz`, each written under `.partial` and renamed once whole. */
export class DiskArchives implements ArchiveStorage {
  constructor(readonly dir: string) {}

  /** The file of a backup's archive. */
  fileOf(backupId: string): string {
    return join(this.dir, `${backupId}.ndjson.gz`);
  }

  async create(backupId: string): Promise<ArchiveUpload> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileOf(backupId);
    const temporary = `${file}.partial`;
    return {
      stream: createWriteStream(temporary, { mode: 0o600 }),
      commit: () => rename(temporary, file),
      abort: () => rm(temporary, { force: true }),
    };
  }

  async open(backupId: string): Promise<Readable> {
    const stream = createReadStream(this.fileOf(backupId));
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    }).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' ? new ArchiveMissing(backupId) : error;
    });
    return stream;
  }

  async remove(backupId: string): Promise<void> {
    await rm(this.fileOf(backupId), { force: true });
  }
}
