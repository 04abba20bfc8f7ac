import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION } from '@dataplatform/contract';
import type { SnapshotCollection, SnapshotReader } from '../storage/backups.js';
import { documentLine } from './backup-lines.js';
import type { ArchiveUpload } from './backup-storage.js';

/** Opens an archive's bytes from the start (each call a new read). */
export type OpenArchive = () => Promise<Readable>;

/** Documents a backup reads per step of its snapshot: fewer, larger reads cost less per document. */
const READ_CHUNK = 5000;

/** Text gathered before it goes to gzip: one write (and hash update) per megabyte, not one per line. */
const WRITE_BATCH = 1 << 20;

/**
 * gzip's level 1 and large chunks: the archive is about half again as large as at the default level 6, which
 * took several times as long and was most of a backup's time.
 */
const GZIP = { level: 1, chunkSize: 256 * 1024 };

/** The first line of an archive. */
export interface ArchiveHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  clusterId: string;
  createdAt: string;
}

/** The last line of an archive: counts, and the SHA-256 of every line before it. */
export interface ArchiveManifest {
  type: 'manifest';
  collections: Record<string, number>;
  documents: number;
  sha256: string;
}

/** What writing an archive came to. */
export interface WrittenArchive {
  documents: number;
  sizeBytes: number;
  /** `sha256:<hex>` of the whole file. */
  checksum: string;
}

/** An archive that cannot be restored: damaged, truncated, altered or of another format. */
export class InvalidArchive extends Error {}

/**
 * Writes the snapshot's collections and documents to `target` as gzip NDJSON, streamed: a chunk of documents at a
 * time, waiting for the storage when gzip's buffer is full. The archive is committed only once complete.
 * `progress` is told the documents written after each chunk; it throws to stop the backup.
 */
export async function writeArchive(
  reader: SnapshotReader,
  header: Omit<ArchiveHeader, 'format' | 'version'>,
  target: ArchiveUpload,
  progress: (documents: number) => Promise<void>,
): Promise<WrittenArchive> {
  const gzip = createGzip(GZIP);
  const fileHash = createHash('sha256');
  let sizeBytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      fileHash.update(chunk);
      sizeBytes += chunk.length;
      done(null, chunk);
    },
  });
  const written = pipeline(gzip, counter, target.stream);
  // A failure of the storage (a full disk, a refused upload) ends the pipeline; the lines below then stop at their next write.
  written.catch(() => {});
  const lineHash = createHash('sha256');
  let batch = '';
  const flush = async () => {
    if (batch === '') return;
    lineHash.update(batch);
    const more = gzip.write(batch);
    batch = '';
    if (!more) await Promise.race([once(gzip, 'drain'), written]);
  };
  const write = async (line: string) => {
    batch += `${line}\n`;
    if (batch.length >= WRITE_BATCH) await flush();
  };
  try {
    await write(JSON.stringify({ format: BACKUP_FORMAT, version: BACKUP_FORMAT_VERSION, ...header }));
    const counts: Record<string, number> = {};
    let documents = 0;
    for (const collection of await reader.collections()) {
      await write(JSON.stringify({ type: 'collection', ...collectionLine(collection) }));
      const name = JSON.stringify(collection.name);
      let after = '';
      let count = 0;
      for (;;) {
        const rows = await reader.documents(collection.name, after, READ_CHUNK);
        for (const row of rows) {
          batch += `${documentLine(name, row)}\n`;
          if (batch.length >= WRITE_BATCH) await flush();
        }
        count += rows.length;
        documents += rows.length;
        if (rows.length < READ_CHUNK) break;
        after = rows.at(-1)!.id;
        await progress(documents);
      }
      counts[collection.name] = count;
    }
    await flush();
    const manifest: ArchiveManifest = {
      type: 'manifest',
      collections: counts,
      documents,
      sha256: lineHash.digest('hex'),
    };
    gzip.end(`${JSON.stringify(manifest)}\n`);
    await written;
    await target.commit();
    return { documents, sizeBytes, checksum: `sha256:${fileHash.digest('hex')}` };
  } catch (error) {
    gzip.destroy();
    await written.catch(() => {});
    await target.abort();
    throw error;
  }
}

function collectionLine(collection: SnapshotCollection) {
  return {
    name: collection.name,
    validator: collection.validator && {
      schema: JSON.parse(collection.validator.schema) as unknown,
      level: collection.validator.level,
      createdAt: collection.validator.createdAt,
      updatedAt: collection.validator.updatedAt,
    },
    indexes: collection.indexes,
  };
}
