import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { promisify } from 'node:util';
import { gzip, type ZlibOptions } from 'node:zlib';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION } from '@dataplatform/contract';
import type { SnapshotCollection, SnapshotReader } from '../storage/backups.js';
import { documentLine, LINE_BLOCK_BYTES, LineBlock, tupleOf } from './backup-lines.js';
import type { ArchiveUpload } from './backup-storage.js';

/** Opens an archive's bytes from the start (each call a new read). */
export type OpenArchive = () => Promise<Readable>;

/** Documents a backup reads per step of its snapshot: fewer, larger reads cost less per document. */
const READ_CHUNK = 5000;

/** Blocks compressed at once (libuv's thread pool has four threads): two cores kept busy beside the reads. */
const PARALLEL_MEMBERS = 3;

/**
 * gzip's level 1 and large chunks: the archive is about half again as large as at the default level 6, which
 * took several times as long and was most of a backup's time. `memLevel` 9 (zlib's largest hash table) compresses
 * these lines a tenth faster than the default 8, to the same size.
 */
const GZIP = { level: 1, memLevel: 9, chunkSize: 256 * 1024 };

const gzipMember = promisify(gzip) as (input: Buffer | string, options: ZlibOptions) => Promise<Buffer>;

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
 * time, waiting for the storage when it is behind. The archive is committed only once complete. `progress` is
 * told the documents written after each chunk; it throws to stop the backup.
 */
export async function writeArchive(
  reader: SnapshotReader,
  header: Omit<ArchiveHeader, 'format' | 'version'>,
  target: ArchiveUpload,
  progress: (documents: number) => Promise<void>,
): Promise<WrittenArchive> {
  const out = new MemberWriter(target.stream);
  const lineHash = createHash('sha256');
  let block = LineBlock.sized(LINE_BLOCK_BYTES);
  const writeBytes = async (bytes: Buffer, release?: () => void) => {
    lineHash.update(bytes);
    await out.write(bytes, release);
  };
  const flush = async () => {
    if (block.empty) return;
    const bytes = block.filled();
    block = LineBlock.sized(LINE_BLOCK_BYTES);
    await writeBytes(bytes);
  };
  /** Flushes the block for a line that did not fit; a line longer than a block goes into a block of its own. */
  const writeInNewBlock = async (line: string) => {
    await flush();
    if (!block.add(line)) block = LineBlock.sized(LINE_BLOCK_BYTES, line);
  };
  /**
   * Writes a line; returns a promise only when a full block makes it wait (an `await` per line, even of nothing,
   * was a turn of the microtask queue each).
   */
  const writeLine = (line: string): Promise<void> | undefined =>
    block.add(line) ? undefined : writeInNewBlock(line);
  /** Writes the next page of a collection's documents (at most `READ_CHUNK`): how many there were, and the last. */
  const writePage = async (collection: string, collectionJson: string, afterId: string) => {
    const rows = await reader.documents(collection, afterId, READ_CHUNK);
    for (const row of rows) {
      const full = writeLine(documentLine(collectionJson, tupleOf(row)));
      if (full) await full;
    }
    return { count: rows.length, lastId: rows.at(-1)?.id };
  };
  /** Writes a collection's documents; resolves with how many there were. */
  const writeDocuments = async (collection: string, done: number) => {
    const collectionJson = JSON.stringify(collection);
    let count = 0;
    if (reader.documentLineBlocks) {
      await flush();
      for await (const lines of reader.documentLineBlocks(collection, collectionJson)) {
        await writeBytes(lines.bytes, lines.release);
        count += lines.count;
        await progress(done + count);
      }
      return count;
    }
    for (let after = ''; ; ) {
      const page = await writePage(collection, collectionJson, after);
      count += page.count;
      if (page.count < READ_CHUNK) return count;
      after = page.lastId!;
      await progress(done + count);
    }
  };
  try {
    await writeLine(JSON.stringify({ format: BACKUP_FORMAT, version: BACKUP_FORMAT_VERSION, ...header }));
    const counts: Record<string, number> = {};
    let documents = 0;
    for (const collection of await reader.collections()) {
      await writeLine(JSON.stringify({ type: 'collection', ...collectionLine(collection) }));
      const count = await writeDocuments(collection.name, documents);
      counts[collection.name] = count;
      documents += count;
    }
    await flush();
    const manifest: ArchiveManifest = {
      type: 'manifest',
      collections: counts,
      documents,
      sha256: lineHash.digest('hex'),
    };
    const written = await out.end(`${JSON.stringify(manifest)}\n`);
    await target.commit();
    return { documents, ...written };
  } catch (error) {
    out.destroy(error);
    await target.abort();
    throw error;
  }
}

/**
 * Writes text as gzip members, one per block, compressed on libuv's thread pool while the next blocks are read
 * (one gzip stream compresses its blocks one after the other, and was most of a large backup's time); the members
 * are written in order, and their concatenation is one gzip file that any gunzip reads whole. Counts and hashes
 * the bytes it writes.
 */
class MemberWriter {
  private readonly pending: Promise<Buffer>[] = [];
  private readonly fileHash = createHash('sha256');
  private sizeBytes = 0;
  /** Rejects when the storage fails (a full disk, a refused upload); the next write then throws. */
  private readonly failed: Promise<never>;

  constructor(private readonly stream: Writable) {
    this.failed = new Promise((_, reject) => stream.once('error', reject));
    this.failed.catch(() => {});
  }

  /**
   * Starts compressing the bytes (`release` is called once they are no longer read); waits while
   * `PARALLEL_MEMBERS` are in flight, writing the oldest.
   */
  async write(bytes: Buffer | string, release?: () => void): Promise<void> {
    const member = gzipMember(bytes, GZIP);
    member.then(release, () => {});
    this.pending.push(member);
    while (this.pending.length >= PARALLEL_MEMBERS) await this.writeOldest();
  }

  /** Writes the text and every member in flight, ends the stream and waits until the storage took it all. */
  async end(text: string): Promise<{ sizeBytes: number; checksum: string }> {
    await this.write(text);
    while (this.pending.length > 0) await this.writeOldest();
    this.stream.end();
    await Promise.race([finished(this.stream), this.failed]);
    return { sizeBytes: this.sizeBytes, checksum: `sha256:${this.fileHash.digest('hex')}` };
  }

  destroy(error: unknown): void {
    this.stream.destroy(error as Error);
  }

  private async writeOldest(): Promise<void> {
    const bytes = await Promise.race([this.pending.shift()!, this.failed]);
    this.fileHash.update(bytes);
    this.sizeBytes += bytes.length;
    if (!this.stream.write(bytes)) await Promise.race([once(this.stream, 'drain'), this.failed]);
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
