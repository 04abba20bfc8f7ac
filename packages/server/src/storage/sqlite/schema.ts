import type Database from 'better-sqlite3';
import { engineIndexName, indexColumns, sqliteIndexExpression, stepsOf } from '../index-expressions.js';
import type {
  CollectionStats,
  IndexBuild,
  IndexRow,
  NewIndex,
  SchemaStore,
  ValidatorRow,
} from '../schema.js';
import { SqliteCollections } from './collections.js';

const INDEX_COLUMNS =
  'cluster_id AS clusterId, collection, name, engine_name AS engineName, fields, is_unique AS isUnique, status, created_at AS createdAt';

type IndexDbRow = Omit<IndexRow, 'fields' | 'unique'> & { fields: string; isUnique: number };

function indexOf(row: IndexDbRow): IndexRow {
  const { isUnique, fields, ...rest } = row;
  return { ...rest, fields: JSON.parse(fields) as IndexRow['fields'], unique: isUnique === 1 };
}

/** True when a SQLite error is a unique constraint failure. */
export function isUniqueFailure(error: unknown): boolean {
  return (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The engine index a unique failure names (`UNIQUE constraint failed: index 'dpx_…'`), when it is a collection index. */
export function failedIndexName(error: unknown): string | null {
  return /index '(dpx_[A-Za-z0-9_]+)'/.exec((error as Error).message)?.[1] ?? null;
}

const COLUMNS =
  'cluster_id AS clusterId, collection, schema, level, created_at AS createdAt, updated_at AS updatedAt';

/** Validators on SQLite: one row per cluster and collection. */
export class SqliteSchema implements SchemaStore {
  private readonly stmt;
  private readonly collectionRows: SqliteCollections;

  constructor(private readonly db: Database.Database) {
    this.collectionRows = new SqliteCollections(db);
    this.stmt = {
      indexes: db.prepare<[string], IndexDbRow>(
        `SELECT ${INDEX_COLUMNS} FROM collection_indexes WHERE cluster_id = ? ORDER BY collection, name`,
      ),
      indexesOf: db.prepare<[string, string], IndexDbRow>(
        `SELECT ${INDEX_COLUMNS} FROM collection_indexes WHERE cluster_id = ? AND collection = ? ORDER BY name`,
      ),
      indexCount: db.prepare<[string, string], { n: number }>(
        'SELECT count(*) AS n FROM collection_indexes WHERE cluster_id = ? AND collection = ?',
      ),
      addIndex: db.prepare(
        `INSERT INTO collection_indexes (cluster_id, collection, name, engine_name, fields, is_unique, status, created_at)
         VALUES (?, ?, ?, ?, ?, ?, 'building', ?) ON CONFLICT DO NOTHING`,
      ),
      indexReady: db.prepare("UPDATE collection_indexes SET status = 'ready' WHERE engine_name = ?"),
      removeIndex: db.prepare<[string, string, string], { engineName: string }>(
        'DELETE FROM collection_indexes WHERE cluster_id = ? AND collection = ? AND name = ? RETURNING engine_name AS engineName',
      ),
      removeEngineIndex: db.prepare('DELETE FROM collection_indexes WHERE engine_name = ?'),
      byEngineName: db.prepare<[string], IndexDbRow>(
        `SELECT ${INDEX_COLUMNS} FROM collection_indexes WHERE engine_name = ?`,
      ),
      get: db.prepare<[string, string], ValidatorRow>(
        `SELECT ${COLUMNS} FROM collection_validators WHERE cluster_id = ? AND collection = ?`,
      ),
      list: db.prepare<[string], ValidatorRow>(
        `SELECT ${COLUMNS} FROM collection_validators WHERE cluster_id = ? ORDER BY collection`,
      ),
      put: db.prepare<[ValidatorRow], ValidatorRow>(
        `INSERT INTO collection_validators (cluster_id, collection, schema, level, created_at, updated_at)
         VALUES (@clusterId, @collection, @schema, @level, @createdAt, @updatedAt)
         ON CONFLICT (cluster_id, collection)
         DO UPDATE SET schema = excluded.schema, level = excluded.level, updated_at = excluded.updated_at
         RETURNING ${COLUMNS}`,
      ),
      remove: db.prepare<[string, string]>(
        'DELETE FROM collection_validators WHERE cluster_id = ? AND collection = ?',
      ),
      after: db.prepare<[number, string, number], { id: string; data: string }>(
        'SELECT id, data FROM documents WHERE collection_id = ? AND id > ? ORDER BY id LIMIT ?',
      ),
      purge: db.prepare<[number, string, number]>(
        `DELETE FROM documents WHERE rowid IN
           (SELECT rowid FROM documents WHERE collection_id = ? AND updated_at <= ? LIMIT ?)`,
      ),
      uncount: db.prepare<[number, number]>('UPDATE collections SET doc_count = doc_count - ? WHERE id = ?'),
      purgeEvents: [
        `DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d
           JOIN webhook_events e ON e.id = d.event_id
           WHERE e.cluster_id = @clusterId AND e.collection = @collection AND e.created_at <= @cutoff)`,
        `DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM webhook_events
           WHERE cluster_id = @clusterId AND collection = @collection AND created_at <= @cutoff)`,
        'DELETE FROM webhook_events WHERE cluster_id = @clusterId AND collection = @collection AND created_at <= @cutoff',
      ].map((text) => db.prepare<[{ clusterId: string; collection: string; cutoff: string }]>(text)),
      collections: db.prepare<[string], CollectionStats>(
        `SELECT c.name AS name, c.doc_count AS documentCount,
                COALESCE((SELECT SUM(LENGTH(d.data)) FROM documents d WHERE d.collection_id = c.id), 0) AS storageBytes
         FROM collections c WHERE c.cluster_id = ? ORDER BY c.name`,
      ),
    };
  }

  async getValidator(clusterId: string, collection: string): Promise<ValidatorRow | null> {
    return this.stmt.get.get(clusterId, collection) ?? null;
  }

  async listValidators(clusterId: string): Promise<ValidatorRow[]> {
    return this.stmt.list.all(clusterId);
  }

  async putValidator(row: ValidatorRow): Promise<ValidatorRow> {
    return this.stmt.put.get(row)!;
  }

  async deleteValidator(clusterId: string, collection: string): Promise<boolean> {
    return this.stmt.remove.run(clusterId, collection).changes > 0;
  }

  async listIndexes(clusterId: string, collection?: string): Promise<IndexRow[]> {
    const rows =
      collection === undefined
        ? this.stmt.indexes.all(clusterId)
        : this.stmt.indexesOf.all(clusterId, collection);
    return rows.map(indexOf);
  }

  /** The index an engine index name stands for, read in the failing write's transaction. */
  indexByEngineName(engineName: string): IndexRow | null {
    const row = this.stmt.byEngineName.get(engineName);
    return row ? indexOf(row) : null;
  }

  async createIndex(index: NewIndex, limit: number): Promise<IndexBuild> {
    const { clusterId, collection } = index;
    if (this.stmt.indexCount.get(clusterId, collection)!.n >= limit)
      return { ok: false, reason: 'too_many', limit };
    const rowId = this.collectionRows.ensure({ clusterId, collection });
    const engineName = engineIndexName(rowId, index.name);
    const added = this.stmt.addIndex.run(
      clusterId,
      collection,
      index.name,
      engineName,
      JSON.stringify(index.fields),
      index.unique ? 1 : 0,
      index.createdAt,
    );
    if (added.changes === 0) return { ok: false, reason: 'taken' };
    const columns = indexColumns('sqlite', index.fields, index.unique);
    try {
      // One statement: SQLite builds the whole index under its write lock, and a duplicate leaves nothing.
      this.db.exec(
        `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX "${engineName}" ON documents (${columns.join(', ')}) WHERE collection_id = ${Number(rowId)}`,
      );
    } catch (error) {
      this.stmt.removeEngineIndex.run(engineName);
      if (!isUniqueFailure(error)) throw error;
      const shared = this.db
        .prepare(
          `SELECT json_array(${index.fields.map((field) => sqliteIndexExpression(stepsOf(field.path))).join(', ')}) AS v
           FROM documents WHERE collection_id = ${Number(rowId)}
           GROUP BY ${index.fields.map((field) => sqliteIndexExpression(stepsOf(field.path))).join(', ')}
           HAVING count(*) > 1 LIMIT 3`,
        )
        .all() as { v: string }[];
      return {
        ok: false,
        reason: 'duplicates',
        examples: shared.map((row) => JSON.parse(row.v) as unknown[]),
      };
    }
    this.stmt.indexReady.run(engineName);
    // Without statistics SQLite takes the collection's range of documents_by_id as just as selective as the new
    // index; a bounded ANALYZE (a sample of each index) tells it otherwise.
    this.db.exec('PRAGMA analysis_limit = 1000; ANALYZE documents');
    return { ok: true, index: { ...index, engineName, status: 'ready' } };
  }

  async dropIndex(clusterId: string, collection: string, name: string): Promise<boolean> {
    const removed = this.db.transaction(() => {
      const row = this.stmt.removeIndex.get(clusterId, collection, name);
      if (row) this.db.exec(`DROP INDEX IF EXISTS "${row.engineName}"`);
      return row !== undefined;
    });
    return removed();
  }

  async collections(clusterId: string): Promise<CollectionStats[]> {
    return this.stmt.collections.all(clusterId);
  }

  async documentsAfter(clusterId: string, collection: string, afterId: string, limit: number) {
    const collectionId = this.collectionRows.find({ clusterId, collection });
    return collectionId === undefined ? [] : this.stmt.after.all(collectionId, afterId, limit);
  }

  async purgeDocuments(
    clusterId: string,
    collection: string,
    cutoff: string,
    limit: number,
  ): Promise<number> {
    const collectionId = this.collectionRows.find({ clusterId, collection });
    if (collectionId === undefined) return 0;
    const step = this.db.transaction(() => {
      const removed = this.stmt.purge.run(collectionId, cutoff, limit).changes;
      if (removed > 0) this.stmt.uncount.run(removed, collectionId);
      return removed;
    });
    return step();
  }

  async purgeEvents(clusterId: string, collection: string, cutoff: string): Promise<number> {
    const purge = this.db.transaction(() => {
      let removed = 0;
      for (const statement of this.stmt.purgeEvents)
        removed = statement.run({ clusterId, collection, cutoff }).changes;
      return removed;
    });
    return purge();
  }
}
