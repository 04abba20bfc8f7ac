import { setImmediate as nextTurn } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import type { RestoreEntry, SnapshotDocument } from '../backups.js';
import { SqliteCollections } from './collections.js';

/** Documents a restore writes per transaction. */
const LOAD_CHUNK = 2000;

/** Rows per INSERT statement: one statement per row was most of the load's time (500 parameters a statement). */
const INSERT_ROWS = 100;

/**
 * WAL pages after which a commit of the load checkpoints (SQLite's default is 1,000, 4 MB): each checkpoint syncs
 * the WAL and the database file, and at the default a restore of a million documents made hundreds of them.
 */
const LOAD_CHECKPOINT_PAGES = 8192;

/**
 * The page cache (KiB) while a restore loads: its transactions each dirty a few megabytes of pages, which the
 * connection's usual cache (SQLite's default, 2 MB) would spill to the WAL before their commit.
 */
const LOAD_CACHE_KIB = 16384;

/** Documents deleted per transaction when collection rows are discarded. */
const DISCARD_CHUNK = 5000;

/**
 * Pseudo cluster ids (no cluster id starts with `~`) that hide collection rows: a restore writes its documents
 * under rows of `STAGED`, and its swap moves the rows it replaced to `REPLACED`. Nothing reads a collection but
 * by its cluster, so these rows and their documents are seen by no one until they are discarded.
 */
const STAGED = '~restore-staged:';
const REPLACED = '~restore-replaced:';
const HIDDEN_FROM = '~restore-';
const HIDDEN_TO = '~restore.';

type RestoredCollection = Extract<RestoreEntry, { type: 'collection' }>['collection'];

/**
 * The text SQLite keeps for a document's data: `JSON.stringify`'s. An archive of PostgreSQL holds jsonb's text,
 * with a space after every colon and comma; it is encoded again here (an archive of SQLite almost never needs it).
 */
function storedText(data: string): string {
  return data.includes('": ') ? JSON.stringify(JSON.parse(data)) : data;
}

/**
 * A restore on SQLite. better-sqlite3 runs a transaction synchronously on the one connection every write shares,
 * so no transaction can stay open while the archive is read. The documents are written straight into the
 * documents table, a chunk per short transaction, under new collection rows of a hidden pseudo cluster; once the
 * archive has been read and checked whole, one short transaction gives those rows the target's cluster and moves
 * the target's old rows out of sight. Documents are keyed by their collection's row id, so the swap touches a few
 * rows whatever the size; each document was written once, and the old ones are deleted afterwards, a chunk at a
 * time. A restore that fails, or a crash at any point, leaves only hidden rows, which `discardLeftovers` removes.
 */
export class SqliteRestore {
  private readonly collectionRows: SqliteCollections;
  private readonly stmt;
  /** Hidden pseudo clusters found when the database opened: what restores stopped by a crash left behind. */
  private leftovers: string[];
  private restores = 0;
  /** The discards of replaced rows, one after the other. */
  private discarding = Promise.resolve();

  constructor(private readonly db: Database.Database) {
    this.collectionRows = new SqliteCollections(db);
    const columns = 'INSERT INTO documents (collection_id, id, data, created_at, updated_at) VALUES ';
    this.stmt = {
      insertMany: db.prepare(`${columns}${Array(INSERT_ROWS).fill('(?, ?, ?, ?, ?)').join(', ')}`),
      insertOne: db.prepare(`${columns}(?, ?, ?, ?, ?)`),
      addCollection: db.prepare<[string, string]>('INSERT INTO collections (cluster_id, name) VALUES (?, ?)'),
      findCollection: db.prepare<[string, string], { id: number }>(
        'SELECT id FROM collections WHERE cluster_id = ? AND name = ?',
      ),
      moveCollection: db.prepare<[string, number, number]>(
        'UPDATE collections SET cluster_id = ?, doc_count = ? WHERE id = ?',
      ),
      moveIndexes: db.prepare<[string, string, string]>(
        'UPDATE collection_indexes SET cluster_id = ? WHERE cluster_id = ? AND collection = ?',
      ),
      removeValidator: db.prepare<[string, string]>(
        'DELETE FROM collection_validators WHERE cluster_id = ? AND collection = ?',
      ),
      putValidator: db.prepare(
        `INSERT INTO collection_validators (cluster_id, collection, schema, level, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      hiddenClusters: db.prepare<[string, string, string, string], { clusterId: string }>(
        `SELECT DISTINCT cluster_id AS clusterId FROM collections WHERE cluster_id >= ? AND cluster_id < ?
         UNION SELECT DISTINCT cluster_id FROM collection_indexes WHERE cluster_id >= ? AND cluster_id < ?`,
      ),
      collectionsOf: db.prepare<[string], { id: number }>('SELECT id FROM collections WHERE cluster_id = ?'),
      indexesOf: db.prepare<[string], { engineName: string }>(
        'SELECT engine_name AS engineName FROM collection_indexes WHERE cluster_id = ?',
      ),
      removeIndex: db.prepare<[string]>('DELETE FROM collection_indexes WHERE engine_name = ?'),
      removeDocuments: db.prepare<[number, number]>(
        'DELETE FROM documents WHERE rowid IN (SELECT rowid FROM documents WHERE collection_id = ? LIMIT ?)',
      ),
      removeCollections: db.prepare<[string]>('DELETE FROM collections WHERE cluster_id = ?'),
      noSync: db.prepare('PRAGMA synchronous = NORMAL'),
      fewerCheckpoints: db.prepare(`PRAGMA wal_autocheckpoint = ${LOAD_CHECKPOINT_PAGES}`),
      checkpoints: db.prepare(
        `PRAGMA wal_autocheckpoint = ${Number(db.pragma('wal_autocheckpoint', { simple: true }))}`,
      ),
      loadCache: db.prepare(`PRAGMA cache_size = -${LOAD_CACHE_KIB}`),
      // The connection's own cache size.
      cache: db.prepare(`PRAGMA cache_size = ${Number(db.pragma('cache_size', { simple: true }))}`),
      // The connection's own setting, FULL unless it was opened with NORMAL.
      synced: db.prepare(`PRAGMA synchronous = ${Number(db.pragma('synchronous', { simple: true }))}`),
    };
    this.leftovers = this.stmt.hiddenClusters
      .all(HIDDEN_FROM, HIDDEN_TO, HIDDEN_FROM, HIDDEN_TO)
      .map((row) => row.clusterId);
  }

  /** The connection's own checkpoints and cache again, after a load. */
  private loaded(): void {
    this.stmt.checkpoints.run();
    this.stmt.cache.run();
  }

  /** Writes the entries under hidden rows, then swaps them in for the cluster's collections of the same names. */
  async replaceCollections(clusterId: string, entries: AsyncIterable<RestoreEntry>) {
    const token = `${Date.now().toString(36)}.${(this.restores++).toString(36)}`;
    const staged: { collection: RestoredCollection; rowId: number; documents: number }[] = [];
    const values: unknown[] = [];
    let rowId = 0;
    let chunk = 0;
    const flush = this.db.transaction(() => {
      let at = 0;
      for (; at + INSERT_ROWS * 5 <= values.length; at += INSERT_ROWS * 5)
        this.stmt.insertMany.run(values.slice(at, at + INSERT_ROWS * 5));
      for (; at < values.length; at += 5) this.stmt.insertOne.run(values.slice(at, at + 5));
      values.length = 0;
      chunk = 0;
    });
    this.stmt.fewerCheckpoints.run();
    this.stmt.loadCache.run();
    try {
      for await (const entry of entries) {
        if (entry.type === 'collection') {
          if (chunk > 0) this.unsynced(flush);
          this.stmt.addCollection.run(STAGED + token, entry.collection.name);
          rowId = this.stmt.findCollection.get(STAGED + token, entry.collection.name)!.id;
          staged.push({ collection: entry.collection, rowId, documents: 0 });
          continue;
        }
        const document: SnapshotDocument = entry.document;
        values.push(rowId, document.id, storedText(document.data), document.createdAt, document.updatedAt);
        staged.at(-1)!.documents++;
        if (++chunk === LOAD_CHUNK) this.unsynced(flush);
      }
      if (chunk > 0) this.unsynced(flush);
    } catch (error) {
      this.loaded();
      await this.discard(STAGED + token);
      throw error;
    }
    this.loaded();
    this.swap(clusterId, staged, token);
    // The replaced documents are deleted after the restore, in the background: deleting costs about as much as
    // writing (each row leaves the table and three indexes), and nothing reads them any more.
    // One that fails leaves hidden rows, which the next start removes.
    this.discarding = this.discarding.then(() => this.discard(REPLACED + token)).catch(() => {});
    return {
      collections: staged.length,
      documents: staged.reduce((sum, { documents }) => sum + documents, 0),
    };
  }

  /**
   * In one transaction (synced): the cluster's rows of the staged names move to `REPLACED` with their indexes,
   * the staged rows take their place, and the validators are replaced.
   */
  private swap(
    clusterId: string,
    staged: { collection: RestoredCollection; rowId: number; documents: number }[],
    token: string,
  ): void {
    this.db.transaction(() => {
      for (const { collection, rowId, documents } of staged) {
        const old = this.stmt.findCollection.get(clusterId, collection.name);
        if (old) this.stmt.moveCollection.run(REPLACED + token, 0, old.id);
        this.stmt.moveIndexes.run(REPLACED + token, clusterId, collection.name);
        this.stmt.moveCollection.run(clusterId, documents, rowId);
        this.stmt.removeValidator.run(clusterId, collection.name);
        const validator = collection.validator;
        if (validator)
          this.stmt.putValidator.run(
            clusterId,
            collection.name,
            validator.schema,
            validator.level,
            validator.createdAt,
            validator.updatedAt,
          );
      }
    })();
    for (const { collection } of staged)
      this.collectionRows.forget({ clusterId, collection: collection.name });
  }

  /** Removes what restores stopped by a crash left hidden (found when the database opened). */
  async discardLeftovers(): Promise<void> {
    const leftovers = this.leftovers;
    this.leftovers = [];
    for (const hidden of leftovers) await this.discard(hidden);
  }

  /**
   * Removes a hidden pseudo cluster's rows: its indexes, then its documents a chunk per transaction (a turn of
   * the event loop between them, so requests go on), then its collection rows. None of it need be durable: what a
   * crash undoes, `discardLeftovers` does again; a closed database stops it, for the next start to finish.
   */
  private async discard(hidden: string): Promise<void> {
    if (!this.db.open) return;
    for (const { engineName } of this.stmt.indexesOf.all(hidden))
      this.unsynced(() =>
        this.db.transaction(() => {
          this.db.exec(`DROP INDEX IF EXISTS "${engineName}"`);
          this.stmt.removeIndex.run(engineName);
        })(),
      );
    for (const { id } of this.stmt.collectionsOf.all(hidden)) {
      while (
        this.unsynced(() => this.stmt.removeDocuments.run(id, DISCARD_CHUNK).changes) === DISCARD_CHUNK
      ) {
        await nextTurn();
        if (!this.db.open) return;
      }
    }
    this.stmt.removeCollections.run(hidden);
  }

  /**
   * Runs `work` with commits that are not synced: the rows it writes matter only once a later synced commit (the
   * swap) has made them visible, and that sync covers every WAL frame before it.
   */
  private unsynced<T>(work: () => T): T {
    this.stmt.noSync.run();
    try {
      return work();
    } finally {
      this.stmt.synced.run();
    }
  }
}
