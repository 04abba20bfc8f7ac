import Database from 'better-sqlite3';
import type {
  BackupRow,
  BackupStore,
  DocumentTuple,
  RestoreEntry,
  SnapshotCollection,
  SnapshotDocument,
  SnapshotReader,
} from '../backups.js';
import { SqliteRestore } from './restore.js';

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
  const tuples = db
    .prepare<[string, string, string, number], DocumentTuple>(
      `SELECT d.id, d.data, d.created_at, d.updated_at FROM documents d
       JOIN collections c ON c.id = d.collection_id
       WHERE c.cluster_id = ? AND c.name = ? AND d.id > ? ORDER BY d.id LIMIT ?`,
    )
    .raw();
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
    async documentTuples(collection, afterId, limit) {
      return tuples.all(clusterId, collection, afterId, limit) as unknown as DocumentTuple[];
    },
  };
}

/** Backups on SQLite. */
export class SqliteBackups implements BackupStore {
  private readonly stmt;
  private readonly restore: SqliteRestore;

  /** `file` is the database file a snapshot opens a connection of its own to; `:memory:` has none (tests). */
  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
  ) {
    this.restore = new SqliteRestore(db);
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
      documentCount: db.prepare<[string], { n: number }>(
        'SELECT COALESCE(SUM(doc_count), 0) AS n FROM collections WHERE cluster_id = ?',
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

  async documentCount(clusterId: string): Promise<number> {
    return this.stmt.documentCount.get(clusterId)!.n;
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
    return this.restore.replaceCollections(clusterId, entries);
  }

  async cleanUp(): Promise<void> {
    await this.restore.discardLeftovers();
  }
}
