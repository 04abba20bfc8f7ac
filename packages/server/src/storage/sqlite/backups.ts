import Database from 'better-sqlite3';
import type {
  BackupRow,
  BackupStore,
  RestoreEntry,
  SnapshotCollection,
  SnapshotDocument,
  SnapshotReader,
} from '../backups.js';
import { SqliteCollections } from './collections.js';

/** Documents a restore stages per transaction. */
const STAGE_CHUNK = 5000;

/** Rows per staging INSERT: one statement per row was most of staging's time (500 parameters a statement). */
const STAGE_ROWS = 100;

const COLUMNS = `id, cluster_id AS clusterId, status, created_at AS createdAt, completed_at AS completedAt,
  document_count AS documentCount, size_bytes AS sizeBytes, checksum`;

/** The collections of a cluster as a snapshot reads them, on any connection to the database. */
function readerOf(db: Database.Database, clusterId: string): SnapshotReader {
  const collections = db.prepare<[string, string, string], { name: string }>(
    `SELECT name FROM collections WHERE cluster_id = ? AND doc_count > 0
     UNION SELECT collection FROM collection_validators WHERE cluster_id = ?
     UNION SELECT collection FROM collection_indexes WHERE cluster_id = ? ORDER BY 1`,
  );
  const validators = db.prepare<
    [string],
    { collection: string; schema: string; level: 'strict' | 'off'; createdAt: string; updatedAt: string }
  >(
    'SELECT collection, schema, level, created_at AS createdAt, updated_at AS updatedAt FROM collection_validators WHERE cluster_id = ?',
  );
  const indexes = db.prepare<
    [string],
    { collection: string; name: string; fields: string; isUnique: number; createdAt: string }
  >(
    `SELECT collection, name, fields, is_unique AS isUnique, created_at AS createdAt FROM collection_indexes
     WHERE cluster_id = ? AND status = 'ready' ORDER BY collection, name`,
  );
  const documents = db.prepare<[string, string, string, number], SnapshotDocument>(
    `SELECT d.id, d.data, d.created_at AS createdAt, d.updated_at AS updatedAt FROM documents d
     JOIN collections c ON c.id = d.collection_id
     WHERE c.cluster_id = ? AND c.name = ? AND d.id > ? ORDER BY d.id LIMIT ?`,
  );
  return {
    async collections(): Promise<SnapshotCollection[]> {
      const byName = new Map<string, SnapshotCollection>();
      for (const { name } of collections.all(clusterId, clusterId, clusterId))
        byName.set(name, { name, validator: null, indexes: [] });
      for (const { collection, ...validator } of validators.all(clusterId)) {
        const found = byName.get(collection);
        if (found) found.validator = validator;
      }
      for (const row of indexes.all(clusterId))
        byName.get(row.collection)?.indexes.push({
          name: row.name,
          fields: JSON.parse(row.fields) as SnapshotCollection['indexes'][number]['fields'],
          unique: row.isUnique === 1,
          createdAt: row.createdAt,
        });
      return [...byName.values()];
    },
    async documents(collection, afterId, limit) {
      return documents.all(clusterId, collection, afterId, limit);
    },
  };
}

/**
 * The text SQLite keeps for a document's data: `JSON.stringify`'s. An archive of PostgreSQL holds jsonb's text,
 * with a space after every colon and comma; it is encoded again here (an archive of SQLite almost never needs it).
 */
function storedText(data: string): string {
  return data.includes('": ') ? JSON.stringify(JSON.parse(data)) : data;
}

/** Backups on SQLite. */
export class SqliteBackups implements BackupStore {
  private readonly stmt;
  /** Restores started on this connection: names each one's staging table. */
  private restores = 0;
  private readonly collectionRows: SqliteCollections;

  /** `file` is the database file a snapshot opens a connection of its own to; `:memory:` has none (tests). */
  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
  ) {
    this.collectionRows = new SqliteCollections(db);
    this.stmt = {
      insert: db.prepare<[BackupRow]>(
        `INSERT INTO backups (id, cluster_id, status, created_at, completed_at, document_count, size_bytes, checksum)
         VALUES (@id, @clusterId, @status, @createdAt, @completedAt, @documentCount, @sizeBytes, @checksum)`,
      ),
      find: db.prepare<[string], BackupRow>(`SELECT ${COLUMNS} FROM backups WHERE id = ?`),
      list: db.prepare<[string], BackupRow>(
        `SELECT ${COLUMNS} FROM backups WHERE cluster_id = ? ORDER BY created_at DESC, id DESC`,
      ),
      update: db.prepare<[BackupRow]>(
        `UPDATE backups SET status = @status, completed_at = @completedAt, document_count = @documentCount,
           size_bytes = @sizeBytes, checksum = @checksum WHERE id = @id`,
      ),
      remove: db.prepare<[string]>('DELETE FROM backups WHERE id = ?'),
      removeDocuments: db.prepare<[number]>('DELETE FROM documents WHERE collection_id = ?'),
      setCount: db.prepare<[number, number]>('UPDATE collections SET doc_count = ? WHERE id = ?'),
      removeValidator: db.prepare<[string, string]>(
        'DELETE FROM collection_validators WHERE cluster_id = ? AND collection = ?',
      ),
      putValidator: db.prepare(
        `INSERT INTO collection_validators (cluster_id, collection, schema, level, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      insertDocument: db.prepare<[number, string, string, string, string]>(
        'INSERT INTO documents (collection_id, id, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      ),
    };
  }

  async create(row: BackupRow): Promise<void> {
    this.stmt.insert.run(row);
  }

  async find(id: string): Promise<BackupRow | null> {
    return this.stmt.find.get(id) ?? null;
  }

  async list(clusterId: string): Promise<BackupRow[]> {
    return this.stmt.list.all(clusterId);
  }

  async update(row: BackupRow): Promise<boolean> {
    return this.stmt.update.run(row).changes > 0;
  }

  async delete(id: string): Promise<boolean> {
    return this.stmt.remove.run(id).changes > 0;
  }

  async snapshot<T>(clusterId: string, read: (reader: SnapshotReader) => Promise<T>): Promise<T> {
    // An in-memory database has no second connection: its reads are not isolated from writes (tests only).
    if (this.file === ':memory:') return read(readerOf(this.db, clusterId));
    // A connection of its own, whose read transaction (WAL) sees the database as it was at its first read while
    // the main connection goes on writing; the reads can then be spread over many turns of the event loop.
    const own = new Database(this.file, { readonly: true, fileMustExist: true });
    try {
      own.pragma('busy_timeout = 5000');
      own.exec('BEGIN');
      own.prepare('SELECT count(*) FROM backups').get();
      return await read(readerOf(own, clusterId));
    } finally {
      if (own.inTransaction) own.exec('ROLLBACK');
      own.close();
    }
  }

  async replaceCollections(clusterId: string, entries: AsyncIterable<RestoreEntry>) {
    // better-sqlite3 runs a transaction synchronously, and the connection is shared with every other write, so no
    // transaction can stay open while the archive is read. The documents are staged first, a chunk per short
    // transaction, in a temporary table of this connection (on disk: temp_store is left at its file default, and
    // a crash drops it), so memory stays flat; then one transaction swaps them in.
    const staging = `restore_${Date.now().toString(36)}_${(this.restores++).toString(36)}`;
    this.db.exec(
      `CREATE TEMP TABLE ${staging} (collection TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL,
         created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`,
    );
    try {
      const columns = '(collection, id, data, created_at, updated_at)';
      const stageMany = this.db.prepare(
        `INSERT INTO temp.${staging} ${columns} VALUES ${Array(STAGE_ROWS).fill('(?, ?, ?, ?, ?)').join(', ')}`,
      );
      const stageOne = this.db.prepare(`INSERT INTO temp.${staging} ${columns} VALUES (?, ?, ?, ?, ?)`);
      const collections: Extract<RestoreEntry, { type: 'collection' }>['collection'][] = [];
      let chunk: SnapshotDocument[] = [];
      let chunkOf = '';
      const flush = this.db.transaction(() => {
        const values: string[] = [];
        for (const row of chunk) {
          values.push(chunkOf, row.id, storedText(row.data), row.createdAt, row.updatedAt);
          if (values.length === STAGE_ROWS * 5) stageMany.run(values.splice(0));
        }
        for (let at = 0; at < values.length; at += 5) stageOne.run(values.slice(at, at + 5));
      });
      for await (const entry of entries) {
        if (entry.type === 'collection') {
          if (chunk.length > 0) flush();
          chunk = [];
          chunkOf = entry.collection.name;
          collections.push(entry.collection);
          continue;
        }
        chunk.push(entry.document);
        if (chunk.length === STAGE_CHUNK) {
          flush();
          chunk = [];
        }
      }
      if (chunk.length > 0) flush();
      return this.swap(clusterId, collections, staging);
    } finally {
      this.db.exec(`DROP TABLE IF EXISTS temp.${staging}`);
    }
  }

  /** In one transaction: each collection's documents and validator replaced by the staged ones. */
  private swap(
    clusterId: string,
    collections: Extract<RestoreEntry, { type: 'collection' }>['collection'][],
    staging: string,
  ) {
    const copy = this.db.prepare<[number, string]>(
      `INSERT INTO documents (collection_id, id, data, created_at, updated_at)
       SELECT ?, id, data, created_at, updated_at FROM temp.${staging} WHERE collection = ?`,
    );
    let written = 0;
    this.db.transaction(() => {
      for (const collection of collections) {
        const rowId = this.collectionRows.ensure({ clusterId, collection: collection.name });
        this.stmt.removeDocuments.run(rowId);
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
        const rows = copy.run(rowId, collection.name).changes;
        this.stmt.setCount.run(rows, rowId);
        written += rows;
      }
    })();
    return { collections: collections.length, documents: written };
  }
}
