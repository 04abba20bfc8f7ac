import type Database from 'better-sqlite3';
import type { BackupRow, BackupStore, RestoreEntry, SnapshotReader } from '../backups.js';
import { SqliteRestore } from './restore.js';
import { SnapshotReads } from './snapshot-reads.js';
import { SnapshotThread } from './snapshot-thread.js';

const COLUMNS = `id, cluster_id AS clusterId, status, created_at AS createdAt, completed_at AS completedAt,
  document_count AS documentCount, size_bytes AS sizeBytes, checksum`;

/** A snapshot read on the main thread, by the connection every write shares (a database in memory). */
function readerOf(db: Database.Database, clusterId: string): SnapshotReader {
  const reads = new SnapshotReads(db, clusterId);
  return {
    collections: async () => reads.collections(),
    documents: async (collection, afterId, limit) => reads.documents(collection, afterId, limit),
    async *documentLineBlocks(collection, collectionJson) {
      const cursor = reads.lines(collection, collectionJson);
      for (;;) {
        const { bytes, count, done } = cursor.next();
        if (count > 0) yield { bytes, count };
        if (done) return;
      }
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
    // A connection of its own on a thread of its own, whose read transaction (WAL) sees the database as it was at
    // its first read while the main connection goes on writing.
    const thread = await SnapshotThread.open({ file: this.file, clusterId });
    try {
      return await read(thread.reader());
    } finally {
      await thread.close();
    }
  }

  async replaceCollections(clusterId: string, entries: AsyncIterable<RestoreEntry>) {
    return this.restore.replaceCollections(clusterId, entries);
  }

  async cleanUp(): Promise<void> {
    await this.restore.discardLeftovers();
  }
}
