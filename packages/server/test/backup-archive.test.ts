import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InvalidArchive, writeArchive } from '../src/services/backup-archive.js';
import { type ArchiveSummary, restoreEntries } from '../src/services/backup-archive-read.js';
import { documentLine, LineBlock, tupleOf } from '../src/services/backup-lines.js';
import type { RestoreEntry, SnapshotDocument, SnapshotReader } from '../src/storage/backups.js';

const AT = '2026-01-01T00:00:00.000Z';

/** A snapshot of one collection of `count` documents, some with multi-byte text, one larger than a block. */
function snapshotOf(count: number): { reader: SnapshotReader; documents: SnapshotDocument[] } {
  const documents = Array.from({ length: count }, (_, i) => ({
    id: `d${String(i).padStart(6, '0')}`,
    data: JSON.stringify({ n: i, text: i % 3 === 0 ? `naïve café ✓ ${'é'.repeat(i % 50)}` : 'plain' }),
    createdAt: AT,
    updatedAt: AT,
  }));
  documents[7]!.data = JSON.stringify({ big: '✓'.repeat(600_000) });
  const reader: SnapshotReader = {
    collections: async () => [{ name: 'orders', validator: null, indexes: [] }],
    documents: async (_collection, afterId, limit) => documents.filter((d) => d.id > afterId).slice(0, limit),
  };
  return { reader, documents };
}

/** Writes the archive into memory; resolves with its bytes and what writing it returned. */
async function written(reader: SnapshotReader) {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const result = await writeArchive(
    reader,
    { clusterId: 'cls_a', createdAt: AT },
    { stream, commit: async () => {}, abort: async () => {} },
    async () => {},
  );
  return { bytes: Buffer.concat(chunks), result };
}

async function entriesOf(bytes: Buffer, checksum: string | null) {
  const summary: ArchiveSummary = { collections: [], manifest: null };
  const entries: RestoreEntry[] = [];
  for await (const entry of restoreEntries(async () => Readable.from([bytes]), checksum, summary))
    entries.push(entry);
  return { entries, summary };
}

describe('backup archive', () => {
  it('is one gzip file of several members that a restore reads back whole', async () => {
    const { reader, documents } = snapshotOf(20_000);
    const { bytes, result } = await written(reader);
    expect(result.documents).toBe(documents.length);
    expect(result.sizeBytes).toBe(bytes.length);
    expect(result.checksum).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    // More than one member: the first member's end is not the file's end.
    const members = bytes.toString('latin1').split('\x1f\x8b\x08\x00').length - 1;
    expect(members).toBeGreaterThan(1);
    const lines = gunzipSync(bytes).toString('utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(documents.length + 3);

    const { entries, summary } = await entriesOf(bytes, result.checksum);
    expect(summary.manifest).toMatchObject({
      documents: documents.length,
      collections: { orders: documents.length },
    });
    expect(entries[0]).toEqual({ type: 'collection', collection: { name: 'orders', validator: null } });
    expect(entries.slice(1)).toEqual(
      documents.map((document) => ({ type: 'document', collection: 'orders', document })),
    );
  });

  it('is the same archive when the storage hands over its document lines in blocks', async () => {
    const { reader, documents } = snapshotOf(2_345);
    const inBlocks: SnapshotReader = {
      ...reader,
      // Blocks of 100 lines at most, or fewer bytes: the one large document comes in a block of its own.
      async *documentLineBlocks(collection, collectionJson) {
        let block = LineBlock.sized(300_000);
        let count = 0;
        for (const row of await reader.documents(collection, '', Number.MAX_SAFE_INTEGER)) {
          const line = documentLine(collectionJson, tupleOf(row));
          if (count === 100 || !block.add(line)) {
            if (count > 0) yield { bytes: block.filled(), count };
            block = LineBlock.sized(300_000, line);
            count = 0;
          }
          count++;
        }
        yield { bytes: block.filled(), count };
      },
    };
    const fromRows = await written(reader);
    const fromBlocks = await written(inBlocks);
    expect(fromBlocks.result.documents).toBe(documents.length);
    // The same lines in the same order (the members' boundaries differ with the blocks).
    expect(gunzipSync(fromBlocks.bytes).toString('utf8')).toBe(gunzipSync(fromRows.bytes).toString('utf8'));
    const { entries, summary } = await entriesOf(fromBlocks.bytes, fromBlocks.result.checksum);
    expect(summary.manifest).toMatchObject({ documents: documents.length });
    expect(entries).toHaveLength(documents.length + 1);
  });

  it('throws at the end of the entries when the file is not the one its checksum names', async () => {
    const { reader, documents } = snapshotOf(3000);
    const { bytes } = await written(reader);
    const seen: RestoreEntry[] = [];
    const other = `sha256:${'0'.repeat(64)}`;
    const reading = (async () => {
      for await (const entry of restoreEntries(async () => Readable.from([bytes]), other, {
        collections: [],
        manifest: null,
      }))
        seen.push(entry);
    })();
    await expect(reading).rejects.toBeInstanceOf(InvalidArchive);
    expect(seen).toHaveLength(documents.length + 1);
  });
});
