import type Database from 'better-sqlite3';
import type { CollectionStats, SchemaStore, ValidatorRow } from '../schema.js';

const COLUMNS =
  'cluster_id AS clusterId, collection, schema, level, created_at AS createdAt, updated_at AS updatedAt';

/** Validators on SQLite: one row per cluster and collection. */
export class SqliteSchema implements SchemaStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
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

  async collections(clusterId: string): Promise<CollectionStats[]> {
    return this.stmt.collections.all(clusterId);
  }
}
