import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../src/bootstrap/accounts.js';
import { documentLine, tupleOf } from '../src/services/backup-lines.js';
import type { SnapshotReader } from '../src/storage/backups.js';
import { withAuthCache } from '../src/storage/cached-stores.js';
import { openSqliteStorage } from '../src/storage/sqlite/index.js';
import type { Storage } from '../src/storage/types.js';

/** Ids whose JSON needs escapes of every kind, and text beyond ASCII. */
const IDS = [
  'plain',
  'quo"te',
  'back\\slash',
  'new\nline',
  'tab\there',
  '\u0001ctl',
  'é-ü',
  '😀',
  'sep\u2028',
  'z/',
];

/** Large documents: each line may take more than a third of a block of lines, so each is in a block of its own. */
const LARGE = [400_000, 400_000, 400_000, 700_000];

/** Every block of a collection's lines, as text, with the counts they gave. */
async function blocksOf(reader: SnapshotReader, collection: string) {
  const texts: string[] = [];
  let count = 0;
  for await (const block of reader.documentLineBlocks!(collection, JSON.stringify(collection))) {
    texts.push(block.bytes.toString('utf8'));
    count += block.count;
  }
  return { texts, count };
}

describe.each([
  ['a database file, read on a thread of its own', true],
  ['a database in memory, read on the main thread', false],
])("a SQLite snapshot's document lines: %s", (_name, onDisk) => {
  let dir: string;
  let storage: Storage;
  let clusterId: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dp-lines-'));
    storage = withAuthCache(openSqliteStorage({ dataDir: onDisk ? dir : ':memory:' }));
    ({ clusterId } = await createAccountWithKey(storage, {
      email: 'lines@example.com',
      name: 'Lines',
      password: 'a long enough password',
      plan: 'team',
    }));
    const documents = [
      ...IDS.map((id, i) => ({ id, data: { n: i, s: `${id} "x"\\`, nested: { a: [1, 2.5, null, true] } } })),
      ...LARGE.map((size, i) => ({
        id: `large-${i}`,
        data: { text: `${'é'.repeat(i)}${'x'.repeat(size)}` },
      })),
    ];
    for (const [i, { id, data }] of documents.entries()) {
      const at = new Date(Date.UTC(2026, 10, 27, 7, 0, i)).toISOString();
      const result = await storage.documents.insert(
        { clusterId, collection: 'o"rders' },
        { id, data: JSON.stringify(data), createdAt: at, updatedAt: at },
      );
      expect(result.ok).toBe(true);
    }
  });

  afterAll(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are the lines of the documents it reads as objects, in blocks of whole lines', async () => {
    await storage.backups.snapshot(clusterId, async (reader) => {
      const rows = await reader.documents('o"rders', '', 100);
      expect(rows).toHaveLength(IDS.length + LARGE.length);
      const { texts, count } = await blocksOf(reader, 'o"rders');
      expect(count).toBe(rows.length);
      expect(texts.join('')).toBe(
        rows.map((row) => `${documentLine(JSON.stringify('o"rders'), tupleOf(row))}\n`).join(''),
      );
      // Each large line is in a block of its own, and every block ends with a whole line.
      expect(texts.length).toBeGreaterThanOrEqual(LARGE.length);
      for (const text of texts) expect(text.endsWith('\n')).toBe(true);
      expect(await blocksOf(reader, 'nothing')).toEqual({ texts: [], count: 0 });
    });
  });

  it('passes on what its reading threw, and a snapshot after it reads again', async () => {
    const failing = storage.backups.snapshot(clusterId, async (reader) => {
      for await (const _block of reader.documentLineBlocks!('o"rders', '"o\\"rders"'))
        throw new Error('stopped');
    });
    await expect(failing).rejects.toThrow('stopped');
    const names = await storage.backups.snapshot(clusterId, async (reader) =>
      (await reader.collections()).map((collection) => collection.name),
    );
    expect(names).toEqual(['o"rders']);
  });
});
