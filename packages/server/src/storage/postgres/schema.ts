import type { Sql } from 'postgres';
import { engineIndexName, indexColumns, postgresIndexExpression, stepsOf } from '../index-expressions.js';
import type {
  CollectionStats,
  IndexBuild,
  IndexRow,
  NewIndex,
  SchemaStore,
  ValidatorRow,
} from '../schema.js';
import { PostgresCollections } from './collections.js';
import { indexDdlOf } from './index-ddl.js';

const INDEX_COLUMNS =
  'cluster_id AS "clusterId", collection, name, engine_name AS "engineName", fields, is_unique AS "unique", status, created_at AS "createdAt"';

type IndexDbRow = Omit<IndexRow, 'fields'> & { fields: string };

function indexOf(row: IndexDbRow): IndexRow {
  return { ...row, fields: JSON.parse(row.fields) as IndexRow['fields'] };
}

/** The engine index a PostgreSQL unique violation names, when it is a collection index. */
export function failedIndexName(error: unknown): string | null {
  const { code, constraint_name: name } = error as { code?: string; constraint_name?: string };
  return code === '23505' && typeof name === 'string' && name.startsWith('dpx_') ? name : null;
}

const COLUMNS =
  'cluster_id AS "clusterId", collection, schema, level, created_at AS "createdAt", updated_at AS "updatedAt"';

/** Validators on PostgreSQL: one row per cluster and collection. */
export class PostgresSchema implements SchemaStore {
  private readonly collectionRows: PostgresCollections;

  constructor(private readonly sql: Sql) {
    this.collectionRows = new PostgresCollections(sql);
  }

  async listIndexes(clusterId: string, collection?: string): Promise<IndexRow[]> {
    const rows =
      collection === undefined
        ? await this.sql.unsafe<IndexDbRow[]>(
            `SELECT ${INDEX_COLUMNS} FROM collection_indexes WHERE cluster_id = $1 ORDER BY collection COLLATE "C", name COLLATE "C"`,
            [clusterId],
          )
        : await this.sql.unsafe<IndexDbRow[]>(
            `SELECT ${INDEX_COLUMNS} FROM collection_indexes WHERE cluster_id = $1 AND collection = $2 ORDER BY name COLLATE "C"`,
            [clusterId, collection],
          );
    return rows.map(indexOf);
  }

  /** The index an engine index name stands for. */
  async indexByEngineName(engineName: string): Promise<IndexRow | null> {
    const [row] = await this.sql.unsafe<IndexDbRow[]>(
      `SELECT ${INDEX_COLUMNS} FROM collection_indexes WHERE engine_name = $1`,
      [engineName],
    );
    return row ? indexOf(row) : null;
  }

  async createIndex(index: NewIndex, limit: number): Promise<IndexBuild> {
    const { clusterId, collection } = index;
    const rowId = await this.collectionRows.ensure({ clusterId, collection });
    const engineName = engineIndexName(rowId, index.name);
    // The record first, counted against the limit in the same statement; the build runs outside any transaction.
    const added = await this.sql.unsafe(
      `INSERT INTO collection_indexes (cluster_id, collection, name, engine_name, fields, is_unique, status, created_at)
       SELECT $1, $2, $3, $4, $5, $6, 'building', $7
       WHERE (SELECT count(*) FROM collection_indexes WHERE cluster_id = $1 AND collection = $2) < $8
       ON CONFLICT DO NOTHING`,
      [
        clusterId,
        collection,
        index.name,
        engineName,
        JSON.stringify(index.fields),
        index.unique,
        index.createdAt,
        limit,
      ],
    );
    if (added.count === 0) {
      const taken = (await this.listIndexes(clusterId, collection)).some((row) => row.name === index.name);
      return taken ? { ok: false, reason: 'taken' } : { ok: false, reason: 'too_many', limit };
    }
    const expressions = index.fields.map((field) => postgresIndexExpression(stepsOf(field.path)));
    const ordered = indexColumns('postgres', index.fields, index.unique);
    const ddl = indexDdlOf(this.sql);
    const dropBuilt = () => this.sql.unsafe(`DROP INDEX CONCURRENTLY IF EXISTS "${engineName}"`);
    try {
      // CONCURRENTLY: writes to the documents go on while the index is built.
      await ddl.queued(() =>
        ddl.retried(
          `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX CONCURRENTLY "${engineName}" ON documents (${ordered.join(', ')}) WHERE collection_id = ${BigInt(rowId)}`,
          dropBuilt,
        ),
      );
    } catch (error) {
      // A failed concurrent build leaves an invalid index behind: drop it, and the record.
      await ddl.drop(engineName);
      await this.sql.unsafe('DELETE FROM collection_indexes WHERE engine_name = $1', [engineName]);
      // 54000, program_limit_exceeded: the index's expressions do not fit its catalog row.
      if ((error as { code?: string }).code === '54000') return { ok: false, reason: 'too_large' };
      if ((error as { code?: string }).code !== '23505') throw error;
      const shared = await this.sql.unsafe<{ v: unknown[] }[]>(
        `SELECT jsonb_build_array(${expressions.join(', ')}) AS v FROM documents WHERE collection_id = $1
         GROUP BY ${expressions.join(', ')} HAVING count(*) > 1 LIMIT 3`,
        [rowId],
      );
      return { ok: false, reason: 'duplicates', examples: shared.map((row) => row.v) };
    }
    await this.sql.unsafe("UPDATE collection_indexes SET status = 'ready' WHERE engine_name = $1", [
      engineName,
    ]);
    // The planner knows nothing of a new expression index's values until the table is analyzed: without it,
    // a sorted page may be read through the primary key and filtered instead. ANALYZE reads a sample.
    // Only statistics: a build that has succeeded does not fail for them.
    await ddl.queued(() => this.sql.unsafe('ANALYZE documents')).catch(() => undefined);
    return { ok: true, index: { ...index, engineName, status: 'ready' } };
  }

  async dropIndex(clusterId: string, collection: string, name: string): Promise<boolean> {
    const [row] = await this.sql.unsafe<{ engineName: string }[]>(
      'SELECT engine_name AS "engineName" FROM collection_indexes WHERE cluster_id = $1 AND collection = $2 AND name = $3',
      [clusterId, collection, name],
    );
    if (!row) return false;
    await indexDdlOf(this.sql).drop(row.engineName);
    const removed = await this.sql.unsafe('DELETE FROM collection_indexes WHERE engine_name = $1', [
      row.engineName,
    ]);
    return removed.count > 0;
  }

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

  async documentsAfter(clusterId: string, collection: string, afterId: string, limit: number) {
    const collectionId = await this.collectionRows.find({ clusterId, collection });
    if (collectionId === undefined) return [];
    return this.sql<{ id: string; data: string }[]>`
      SELECT id, data::text AS data FROM documents
      WHERE collection_id = ${collectionId} AND id > ${afterId} ORDER BY id LIMIT ${limit}`;
  }

  async purgeDocuments(
    clusterId: string,
    collection: string,
    cutoff: string,
    limit: number,
  ): Promise<number> {
    const collectionId = await this.collectionRows.find({ clusterId, collection });
    if (collectionId === undefined) return 0;
    // The removed count goes on a shard of its own, as the document writes' counts do (document-operations.ts).
    const [row] = await this.sql<{ n: string }[]>`
      WITH removed AS (
        DELETE FROM documents WHERE collection_id = ${collectionId} AND id IN (
          SELECT id FROM documents WHERE collection_id = ${collectionId} AND updated_at <= ${cutoff} LIMIT ${limit}
        ) RETURNING 1
      ), counted AS (
        INSERT INTO collection_counters (collection_id, shard, n)
        SELECT ${collectionId}, 0, -count(*) FROM removed HAVING count(*) > 0
        ON CONFLICT (collection_id, shard) DO UPDATE SET n = collection_counters.n + EXCLUDED.n
      )
      SELECT count(*) AS n FROM removed`;
    return Number(row?.n ?? 0);
  }

  async purgeEvents(clusterId: string, collection: string, cutoff: string): Promise<number> {
    return this.sql.begin(async (tx) => {
      await tx`DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d
        JOIN webhook_events e ON e.id = d.event_id
        WHERE e.cluster_id = ${clusterId} AND e.collection = ${collection} AND e.created_at <= ${cutoff})`;
      await tx`DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM webhook_events
        WHERE cluster_id = ${clusterId} AND collection = ${collection} AND created_at <= ${cutoff})`;
      const removed = await tx`DELETE FROM webhook_events
        WHERE cluster_id = ${clusterId} AND collection = ${collection} AND created_at <= ${cutoff}`;
      return removed.count;
    });
  }
}
