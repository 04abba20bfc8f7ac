import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestoreEntry } from '../src/storage/backups.js';
import type { DocumentOperation } from '../src/storage/documents.js';
import { openStorage } from '../src/storage/index.js';
import type { Storage } from '../src/storage/types.js';
import { availableEngines, createTestDatabase } from './helpers.js';

const AT = '2026-01-01T00:00:00.000Z';
const CLUSTER = 'cls_restored';

const insert = (collection: string, id: string): DocumentOperation => ({
  kind: 'insert',
  collection,
  row: { id, data: JSON.stringify({ id }), createdAt: AT, updatedAt: AT },
});

/** A restore's entries: one collection and its documents, then (when `fail`) an error before they end. */
async function* entries(collection: string, ids: string[], fail?: Error): AsyncGenerator<RestoreEntry> {
  yield { type: 'collection', collection: { name: collection, validator: null } };
  for (const id of ids)
    yield {
      type: 'document',
      collection,
      document: { id, data: `{"id":"${id}"}`, createdAt: AT, updatedAt: AT },
    };
  if (fail) throw fail;
}

/** `BackupStore.replaceCollections`, on every engine: all or nothing, and nothing before the entries ended. */
describe.each(availableEngines())('restore storage on %s', (engine) => {
  let storage: Storage;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  const open = () =>
    openStorage({ dataDir, databaseUrl: database?.url, databasePoolSize: 8, sqliteSynchronous: 'NORMAL' });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-restore-'));
    database = engine === 'postgres' ? await createTestDatabase() : undefined;
    storage = await open();
  }, 60_000);
  afterAll(async () => {
    await storage.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const ids = async (collection: string) =>
    (
      await storage.documents.list({ clusterId: CLUSTER, collection }, { limit: 100, skip: 0, sort: [] })
    ).rows.map((row) => row.id);
  /** Rows of the SQLite file under the hidden pseudo clusters of restores, read on a connection of its own. */
  const hidden = () => {
    const db = new Database(join(dataDir, 'dataplatform.sqlite'), { readonly: true });
    try {
      return db
        .prepare<[], { n: number }>(
          `SELECT (SELECT count(*) FROM collections WHERE cluster_id LIKE '~restore-%')
                + (SELECT count(*) FROM documents WHERE collection_id IN
                    (SELECT id FROM collections WHERE cluster_id LIKE '~restore-%'))
                + (SELECT count(*) FROM documents WHERE collection_id NOT IN (SELECT id FROM collections))
                + (SELECT count(*) FROM collection_indexes WHERE cluster_id LIKE '~restore-%') AS n`,
        )
        .get()!.n;
    } finally {
      db.close();
    }
  };
  const noneHidden = async () => {
    // The replaced rows are deleted in the background, a chunk per turn of the event loop.
    for (let turn = 0; turn < 400 && hidden() > 0; turn++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return hidden();
  };

  it('changes nothing when the entries throw, and replaces the collection whole when they end', async () => {
    await storage.documents.apply(CLUSTER, [insert('orders', 'old1'), insert('orders', 'old2')], {
      atomic: true,
    });
    const failure = new Error('the archive does not match its checksum');
    await expect(
      storage.backups.replaceCollections(CLUSTER, entries('orders', ['new1', 'new2', 'new3'], failure)),
    ).rejects.toBe(failure);
    expect(await ids('orders')).toEqual(['old1', 'old2']);
    if (engine === 'sqlite') expect(hidden()).toBe(0);

    const swapped = await storage.backups.replaceCollections(
      CLUSTER,
      entries('orders', ['new1', 'new2', 'new3']),
    );
    expect(swapped).toEqual({ collections: 1, documents: 3 });
    expect(await ids('orders')).toEqual(['new1', 'new2', 'new3']);
    expect(await storage.documents.get({ clusterId: CLUSTER, collection: 'orders' }, 'old1')).toBeNull();
    expect(await storage.backups.documentCount(CLUSTER)).toBe(3);
    // Writes after the swap go to the restored collection.
    await storage.documents.apply(CLUSTER, [insert('orders', 'later')], { atomic: true });
    expect(await ids('orders')).toEqual(['later', 'new1', 'new2', 'new3'].sort());
    expect(await storage.backups.documentCount(CLUSTER)).toBe(4);
    if (engine === 'sqlite') expect(await noneHidden()).toBe(0);
  });

  it('leaves the replaced collection without its old indexes, for the restore to build the archive’s', async () => {
    await storage.documents.apply(CLUSTER, [insert('people', 'p1')], { atomic: true });
    const built = await storage.schema.createIndex(
      {
        clusterId: CLUSTER,
        collection: 'people',
        name: 'by_id',
        fields: [{ path: 'id', order: 'asc' }],
        unique: true,
        createdAt: AT,
      },
      10,
    );
    expect(built.ok).toBe(true);
    await storage.backups.replaceCollections(CLUSTER, entries('people', ['p2']));
    const kept = await storage.schema.listIndexes(CLUSTER, 'people');
    if (engine === 'sqlite') {
      expect(kept).toEqual([]);
      expect(await noneHidden()).toBe(0);
    } else expect(kept.map((index) => index.name)).toEqual(['by_id']);
    expect(await ids('people')).toEqual(['p2']);
  });

  it.runIf(engine === 'sqlite')(
    'removes at the next start what a restore stopped by a crash left',
    async () => {
      await storage.close();
      const db = new Database(join(dataDir, 'dataplatform.sqlite'));
      const { lastInsertRowid } = db
        .prepare("INSERT INTO collections (cluster_id, name) VALUES ('~restore-staged:crashed', 'orders')")
        .run();
      const add = db.prepare(
        'INSERT INTO documents (collection_id, id, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      );
      for (let i = 0; i < 12_000; i++) add.run(lastInsertRowid, `s${i}`, '{}', AT, AT);
      db.close();
      storage = await open();
      expect(hidden()).toBe(12_001);
      await storage.backups.cleanUp();
      expect(hidden()).toBe(0);
      expect(await ids('orders')).toEqual(['later', 'new1', 'new2', 'new3']);
    },
  );
});
