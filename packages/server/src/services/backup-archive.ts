import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION } from '@dataplatform/contract';
import type { RestoreEntry, SnapshotCollection, SnapshotReader } from '../storage/backups.js';
import type { ArchiveUpload } from './backup-storage.js';

/** Opens an archive's bytes from the start (each call a new read). */
export type OpenArchive = () => Promise<Readable>;

/** Documents a backup reads per step of its snapshot. */
const READ_CHUNK = 500;

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
  const gzip = createGzip();
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
  const write = async (value: unknown) => {
    const line = `${JSON.stringify(value)}\n`;
    lineHash.update(line);
    if (!gzip.write(line)) await Promise.race([once(gzip, 'drain'), written]);
  };
  try {
    await write({ format: BACKUP_FORMAT, version: BACKUP_FORMAT_VERSION, ...header });
    const counts: Record<string, number> = {};
    let documents = 0;
    for (const collection of await reader.collections()) {
      await write({ type: 'collection', ...collectionLine(collection) });
      let after = '';
      let count = 0;
      for (;;) {
        const rows = await reader.documents(collection.name, after, READ_CHUNK);
        for (const row of rows)
          await write({
            type: 'document',
            collection: collection.name,
            _id: row.id,
            data: JSON.parse(row.data) as unknown,
            createdAt: row.createdAt,
            updatedAt: row.updatedAt,
          });
        count += rows.length;
        documents += rows.length;
        if (rows.length < READ_CHUNK) break;
        after = rows.at(-1)!.id;
        await progress(documents);
      }
      counts[collection.name] = count;
    }
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

/** The lines of an archive, decompressed and read one at a time. */
async function* linesOf(open: OpenArchive): AsyncGenerator<string> {
  const raw = await open();
  const source = raw.pipe(createGunzip());
  // A read error of the storage ends the lines with it.
  raw.once('error', (error) => source.destroy(error));
  const lines = createInterface({ input: source, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) yield line;
  } finally {
    lines.close();
    source.destroy();
    raw.destroy();
  }
}

/** SHA-256 of an archive's bytes, `sha256:<hex>`, read as a stream. */
export async function fileChecksum(open: OpenArchive): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of await open()) hash.update(chunk as Buffer);
  return `sha256:${hash.digest('hex')}`;
}

/** A collection line of an archive, as a restore uses it. */
export type ArchiveCollection = Omit<SnapshotCollection, 'validator'> & {
  validator: { schema: unknown; level: 'strict' | 'off'; createdAt: string; updatedAt: string } | null;
};

/**
 * Reads the whole archive once and checks it: the file's checksum (when one is expected), its header, that every
 * line parses, that the counts and the SHA-256 of the manifest match the lines. Returns the header, the
 * collections and the manifest; throws `InvalidArchive` with the reason otherwise.
 */
export async function verifyArchive(open: OpenArchive, checksum: string | null) {
  if (checksum !== null && (await fileChecksum(open)) !== checksum)
    throw new InvalidArchive('The archive does not match its checksum: it was changed or cut short');
  const hash = createHash('sha256');
  let header: ArchiveHeader | null = null;
  let manifest: ArchiveManifest | null = null;
  const collections: ArchiveCollection[] = [];
  const counts: Record<string, number> = {};
  let documents = 0;
  try {
    for await (const line of linesOf(open)) {
      if (manifest) throw new InvalidArchive('The archive has lines after its manifest');
      const value = JSON.parse(line) as Record<string, unknown>;
      if (!header) {
        if (value.format !== BACKUP_FORMAT || value.version !== BACKUP_FORMAT_VERSION)
          throw new InvalidArchive('The archive is not a dataplatform backup of a known version');
        header = value as unknown as ArchiveHeader;
      } else if (value.type === 'manifest') {
        manifest = value as unknown as ArchiveManifest;
        continue;
      } else if (value.type === 'collection') {
        if (typeof value.name !== 'string' || value.name in counts)
          throw new InvalidArchive('The archive has a collection line without a name, or twice');
        collections.push({
          name: value.name,
          validator: (value.validator ?? null) as ArchiveCollection['validator'],
          indexes: (value.indexes ?? []) as ArchiveCollection['indexes'],
        });
        counts[value.name] = 0;
      } else if (value.type === 'document') {
        if (collections.at(-1)?.name !== value.collection || typeof value._id !== 'string')
          throw new InvalidArchive('The archive has a document outside its collection');
        counts[value.collection as string]!++;
        documents++;
      } else throw new InvalidArchive('The archive has a line of an unknown type');
      hash.update(`${line}\n`);
    }
  } catch (error) {
    if (error instanceof InvalidArchive) throw error;
    throw new InvalidArchive(`The archive cannot be read: ${(error as Error).message}`);
  }
  if (!header || !manifest) throw new InvalidArchive('The archive is cut short: it has no manifest');
  if (manifest.sha256 !== hash.digest('hex'))
    throw new InvalidArchive("The archive's lines do not match the SHA-256 of its manifest");
  if (manifest.documents !== documents || JSON.stringify(manifest.collections) !== JSON.stringify(counts))
    throw new InvalidArchive("The archive's documents do not match the counts of its manifest");
  return { header, collections, manifest };
}

/** The collections and documents of a verified archive, as a restore writes them. */
export async function* restoreEntries(open: OpenArchive): AsyncGenerator<RestoreEntry> {
  for await (const line of linesOf(open)) {
    const value = JSON.parse(line) as Record<string, unknown>;
    if (value.type === 'collection') {
      const validator = value.validator as ArchiveCollection['validator'];
      yield {
        type: 'collection',
        collection: {
          name: value.name as string,
          validator: validator && { ...validator, schema: JSON.stringify(validator.schema) },
        },
      };
    } else if (value.type === 'document')
      yield {
        type: 'document',
        collection: value.collection as string,
        document: {
          id: value._id as string,
          data: JSON.stringify(value.data),
          createdAt: value.createdAt as string,
          updatedAt: value.updatedAt as string,
        },
      };
  }
}
