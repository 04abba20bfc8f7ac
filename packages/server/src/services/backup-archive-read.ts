import { createHash } from 'node:crypto';
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

/** The lines of an archive, decompressed and read one at a time. */
async function* linesOf(open: OpenArchive): AsyncGenerator<string> {
  const raw = await open();
  const source = raw.pipe(createGunzip({ chunkSize: 256 * 1024 }));
  // A read error of the storage ends the lines with it.
  raw.once('error', (error) => source.destroy(error));
  try {
    yield* splitLines(source);
  } finally {
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
      // With the file's checksum matched, the bytes are those the backup wrote from valid stored JSON: a
      // document line's data need not be parsed again, only its place checked.
      const fast = checksum !== null && header ? parseDocumentLine(line) : null;
      if (fast) {
        if (collections.at(-1)?.name !== fast.collection)
          throw new InvalidArchive('The archive has a document outside its collection');
        counts[fast.collection]!++;
        documents++;
        hash.update(`${line}\n`);
        continue;
      }
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

/**
 * The collections and documents of a verified archive, as a restore writes them. The lines are hashed again on
 * the way and checked against the manifest before the last entry is taken, so an archive changed since it was
 * verified throws (and the restore, one transaction, changes nothing).
 */
export async function* restoreEntries(open: OpenArchive): AsyncGenerator<RestoreEntry> {
  const hash = createHash('sha256');
  let sealed = false;
  for await (const line of linesOf(open)) {
    const fast = parseDocumentLine(line);
    if (fast) {
      hash.update(`${line}\n`);
      yield { type: 'document', ...fast };
      continue;
    }
    const value = JSON.parse(line) as Record<string, unknown>;
    if (value.type === 'manifest') {
      if ((value as unknown as ArchiveManifest).sha256 !== hash.digest('hex'))
        throw new InvalidArchive('The archive changed while it was restored');
      sealed = true;
      continue;
    }
    hash.update(`${line}\n`);
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
  if (!sealed) throw new InvalidArchive('The archive changed while it was restored');
}
