import { createHash, type Hash } from 'node:crypto';
import { Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION } from '@dataplatform/contract';
import type { RestoreEntry, SnapshotCollection } from '../storage/backups.js';
import {
  type ArchiveHeader,
  type ArchiveManifest,
  InvalidArchive,
  type OpenArchive,
} from './backup-archive.js';
import { parseDocumentLine, splitLines } from './backup-lines.js';
import { ArchiveMissing } from './backup-storage.js';

/** The lines of an archive, decompressed and read one at a time; `fileHash` is fed every byte of the file. */
async function* linesOf(open: OpenArchive, fileHash: Hash): AsyncGenerator<string> {
  const raw = await open();
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      fileHash.update(chunk);
      done(null, chunk);
    },
  });
  // gunzip reads every byte it is given (a second gzip member or trailing bytes too, or fails on them), so once
  // the lines ended the hash has seen the whole file. Chunks of 64 KiB: their strings are young objects that the
  // scavenger frees, where chunks of 256 KiB went to the large-object space and waited for a full collection.
  const source = raw.pipe(hashing).pipe(createGunzip({ chunkSize: 64 * 1024 }));
  // A read error of the storage ends the lines with it.
  raw.once('error', (error) => source.destroy(error));
  try {
    yield* splitLines(source);
  } finally {
    source.destroy();
    hashing.destroy();
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

/** What a restore learns of its archive while it reads it: the collections as they come, then the manifest. */
export interface ArchiveSummary {
  collections: ArchiveCollection[];
  manifest: ArchiveManifest | null;
}

/**
 * The collections and documents of an archive, as a restore writes them, read once and checked on the way: the
 * header, that every line parses and has its place, then at the end the counts and the SHA-256 of the manifest
 * and the file's checksum (when one is expected). A check that fails throws `InvalidArchive` before the iteration
 * ends, so a restore that writes as it reads (and swaps only once the entries ended) changes nothing. With the
 * file's checksum expected, a document line's data is not parsed: the checksum, checked at the end, vouches for
 * the bytes the backup wrote from valid stored JSON. `summary` is filled in on the way.
 */
export async function* restoreEntries(
  open: OpenArchive,
  checksum: string | null,
  summary: ArchiveSummary,
): AsyncGenerator<RestoreEntry> {
  const fileHash = createHash('sha256');
  const lineHash = createHash('sha256');
  let header: ArchiveHeader | null = null;
  const counts: Record<string, number> = {};
  let documents = 0;
  const { collections } = summary;
  try {
    for await (const line of linesOf(open, fileHash)) {
      if (summary.manifest) throw new InvalidArchive('The archive has lines after its manifest');
      const fast = checksum !== null && header ? parseDocumentLine(line) : null;
      if (fast) {
        if (collections.at(-1)?.name !== fast.collection)
          throw new InvalidArchive('The archive has a document outside its collection');
        counts[fast.collection]!++;
        documents++;
        lineHash.update(`${line}\n`);
        yield { type: 'document', ...fast };
        continue;
      }
      const value = JSON.parse(line) as Record<string, unknown>;
      if (!header) {
        if (value.format !== BACKUP_FORMAT || value.version !== BACKUP_FORMAT_VERSION)
          throw new InvalidArchive('The archive is not a dataplatform backup of a known version');
        header = value as unknown as ArchiveHeader;
      } else if (value.type === 'manifest') {
        summary.manifest = value as unknown as ArchiveManifest;
        continue;
      } else if (value.type === 'collection') {
        if (typeof value.name !== 'string' || value.name in counts)
          throw new InvalidArchive('The archive has a collection line without a name, or twice');
        const collection: ArchiveCollection = {
          name: value.name,
          validator: (value.validator ?? null) as ArchiveCollection['validator'],
          indexes: (value.indexes ?? []) as ArchiveCollection['indexes'],
        };
        collections.push(collection);
        counts[value.name] = 0;
        const validator = collection.validator;
        lineHash.update(`${line}\n`);
        yield {
          type: 'collection',
          collection: {
            name: collection.name,
            validator: validator && { ...validator, schema: JSON.stringify(validator.schema) },
          },
        };
        continue;
      } else if (value.type === 'document') {
        if (collections.at(-1)?.name !== value.collection || typeof value._id !== 'string')
          throw new InvalidArchive('The archive has a document outside its collection');
        counts[value.collection as string]!++;
        documents++;
        lineHash.update(`${line}\n`);
        yield {
          type: 'document',
          collection: value.collection as string,
          document: {
            id: value._id,
            data: JSON.stringify(value.data),
            createdAt: value.createdAt as string,
            updatedAt: value.updatedAt as string,
          },
        };
        continue;
      } else throw new InvalidArchive('The archive has a line of an unknown type');
      lineHash.update(`${line}\n`);
    }
  } catch (error) {
    if (error instanceof InvalidArchive || error instanceof ArchiveMissing) throw error;
    throw new InvalidArchive(`The archive cannot be read: ${(error as Error).message}`);
  }
  const manifest = summary.manifest;
  if (checksum !== null && `sha256:${fileHash.digest('hex')}` !== checksum)
    throw new InvalidArchive('The archive does not match its checksum: it was changed or cut short');
  if (!header || !manifest) throw new InvalidArchive('The archive is cut short: it has no manifest');
  if (manifest.sha256 !== lineHash.digest('hex'))
    throw new InvalidArchive("The archive's lines do not match the SHA-256 of its manifest");
  if (manifest.documents !== documents || JSON.stringify(manifest.collections) !== JSON.stringify(counts))
    throw new InvalidArchive("The archive's documents do not match the counts of its manifest");
}
