import type { Sql } from 'postgres';
import type { CollectionStats, SchemaStore, ValidatorRow } from '../schema.js';

const COLUMNS =
  'cluster_id AS "clusterId", collection, schema, level, created_at AS "createdAt", updated_at AS "updatedAt"';

/** Validators on PostgreSQL: one row per cluster and collection. */
export class PostgresSchema implements SchemaStore {
  constructor(private readonly sql: Sql) {}

  async getValidator(clusterId: string, collection: string): Promise<ValidatorRow | null> {
    const [row] = await this.sql.unsafe<ValidatorRow[]>(
      `SELECT ${COLUMNS} FROM collection_validators WHERE cluster_id = $1 AND collection = $2`,
      [clusterId, collection],
    );
    return row ?? null;
  }

  async listValidators(clusterId: string): Promise<ValidatorRow[]> {
    return this.sql.unsafe<ValidatorRow[]>(
      `SELECT ${COLUMNS} FROM collection_validators WHERE cluster_id = $1 ORDER BY collection COLLATE "C"`,
      [clusterId],
    );
  }

  async putValidator(row: ValidatorRow): Promise<ValidatorRow> {
    const [stored] = await this.sql.unsafe<ValidatorRow[]>(
      `INSERT INTO collection_validators (cluster_id, collection, schema, level, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (cluster_id, collection)
       DO UPDATE SET schema = EXCLUDED.schema, level = EXCLUDED.level, updated_at = EXCLUDED.updated_at
       RETURNING ${COLUMNS}`,
      [row.clusterId, row.collection, row.schema, row.level, row.createdAt, row.updatedAt],
    );
    return stored!;
  }

  async deleteValidator(clusterId: string, collection: string): Promise<boolean> {
    const result = await this.sql.unsafe(
      'DELETE FROM collection_validators WHERE cluster_id = $1 AND collection = $2',
      [clusterId, collection],
    );
    return result.count > 0;
  }

  async collections(clusterId: string): Promise<CollectionStats[]> {
    return this.sql.unsafe<CollectionStats[]>(
      `SELECT c.name,
              COALESCE((SELECT SUM(n) FROM collection_counters cc WHERE cc.collection_id = c.id), 0)::float8 AS "documentCount",
              COALESCE((SELECT SUM(octet_length(d.data::text)) FROM documents d WHERE d.collection_id = c.id), 0)::float8 AS "storageBytes"
       FROM collections c WHERE c.cluster_id = $1 ORDER BY c.name COLLATE "C"`,
      [clusterId],
    );
  }
}
