import type { Sql, TransactionSql } from 'postgres';
import { Abort } from '../abort.js';
import { composeDocument, deletedBody, SYSTEM_COLUMNS } from '../compose.js';
import type {
  CollectionRef,
  DocumentRow,
  DocumentStore,
  IdempotencyRecordInput,
  ListOptions,
  WriteResult,
} from '../types.js';
import type { PostgresCollections } from './collections.js';
import type { PostgresIdempotency } from './idempotency.js';

type Query = Sql | TransactionSql;

const COLUMNS = 'id, data::text AS data, created_at AS "createdAt", updated_at AS "updatedAt"';
const COUNTER_SHARDS = 16;

function shard(): number {
  return Math.floor(Math.random() * COUNTER_SHARDS);
}

/** ORDER BY terms for one JSON path parameter, in the contract's order (see typeRank). */
function jsonOrder(param: string, direction: string): string[] {
  const value = `data #> ${param}::text[]`;
  return [
    `(CASE jsonb_typeof(${value}) WHEN 'boolean' THEN 1 WHEN 'number' THEN 2 WHEN 'string' THEN 3 WHEN 'array' THEN 4 WHEN 'object' THEN 4 ELSE 0 END) ${direction}`,
    `(CASE WHEN jsonb_typeof(${value}) IN ('boolean', 'number') THEN ${value} END) ${direction}`,
    `(CASE WHEN jsonb_typeof(${value}) = 'string' THEN (data #>> ${param}::text[]) COLLATE "C" END) ${direction}`,
  ];
}

/** Documents on PostgreSQL: jsonb rows, counts kept in sharded counters, every write atomic. */
export class PostgresDocuments implements DocumentStore {
  constructor(
    private readonly sql: Sql,
    private readonly collections: PostgresCollections,
    private readonly idempotency: PostgresIdempotency,
  ) {}

  async list(ref: CollectionRef, options: ListOptions): Promise<{ rows: string[]; total: number }> {
    const collectionId = await this.collections.find(ref);
    if (collectionId === undefined) return { rows: [], total: 0 };
    const params: unknown[] = [collectionId];
    const order: string[] = [];
    for (const key of options.sort) {
      const direction = key.descending ? 'DESC' : 'ASC';
      const column = key.path.length === 1 ? SYSTEM_COLUMNS[key.path[0]!] : undefined;
      if (column) order.push(`${column} ${direction}`);
      else if (!(key.path[0]! in SYSTEM_COLUMNS)) {
        params.push(key.path);
        order.push(...jsonOrder(`$${params.length}`, direction));
      }
    }
    if (!order.some((part) => part.startsWith('id ')))
      order.push(`id ${options.sort.at(-1)?.descending ? 'DESC' : 'ASC'}`);
    params.push(options.limit, options.skip);
    // One statement, so the page and the total come from one snapshot. The outer side has exactly one row,
    // so the nested loop hands on the page's rows in the order the inner query sorted them.
    const rows = await this.sql.unsafe<(DocumentRow & { total: string })[]>(
      `SELECT t.total, p.* FROM
         (SELECT COALESCE(SUM(n), 0) AS total FROM collection_counters WHERE collection_id = $1) t
       LEFT JOIN LATERAL (
         SELECT ${COLUMNS} FROM documents WHERE collection_id = $1
         ORDER BY ${order.join(', ')} LIMIT $${params.length - 1} OFFSET $${params.length}
       ) p ON true`,
      params as never[],
      { prepare: true },
    );
    const total = Number(rows[0]?.total ?? 0);
    return { rows: rows[0]?.id === null ? [] : rows.map(composeDocument), total };
  }

  async get(ref: CollectionRef, id: string): Promise<string | null> {
    const collectionId = await this.collections.find(ref);
    if (collectionId === undefined) return null;
    const [row] = await this.sql.unsafe<DocumentRow[]>(
      `SELECT ${COLUMNS} FROM documents WHERE collection_id = $1 AND id = $2`,
      [collectionId, id],
    );
    return row ? composeDocument(row) : null;
  }

  async insert(
    ref: CollectionRef,
    row: DocumentRow,
    idempotency?: IdempotencyRecordInput,
  ): Promise<WriteResult> {
    const collectionId = await this.collections.ensure(ref);
    return this.write(ref.clusterId, idempotency, false, async (q) => {
      const [stored] = await q.unsafe<DocumentRow[]>(
        `WITH inserted AS (
           INSERT INTO documents (collection_id, id, data, created_at, updated_at)
           VALUES ($1, $2, $3::text::jsonb, $4, $5) ON CONFLICT DO NOTHING
           RETURNING ${COLUMNS}
         ), counted AS (
           INSERT INTO collection_counters (collection_id, shard, n) SELECT $1, $6, 1 FROM inserted
           ON CONFLICT (collection_id, shard) DO UPDATE SET n = collection_counters.n + 1
         )
         SELECT * FROM inserted`,
        [collectionId, row.id, row.data, row.createdAt, row.updatedAt, shard()],
      );
      if (!stored) throw new Abort('conflict');
      return composeDocument(stored);
    });
  }

  async replace(
    ref: CollectionRef,
    id: string,
    data: string,
    updatedAt: string,
    idempotency?: IdempotencyRecordInput,
  ): Promise<WriteResult> {
    const collectionId = await this.collections.find(ref);
    if (collectionId === undefined) return { ok: false, reason: 'not_found' };
    return this.write(ref.clusterId, idempotency, false, async (q) => {
      const [stored] = await q.unsafe<DocumentRow[]>(
        `UPDATE documents SET data = $1::text::jsonb, updated_at = $2 WHERE collection_id = $3 AND id = $4 RETURNING ${COLUMNS}`,
        [data, updatedAt, collectionId, id],
      );
      if (!stored) throw new Abort('not_found');
      return composeDocument(stored);
    });
  }

  async update(
    ref: CollectionRef,
    id: string,
    change: (data: Record<string, unknown>) => Record<string, unknown>,
    updatedAt: string,
    idempotency?: IdempotencyRecordInput,
  ): Promise<WriteResult> {
    const collectionId = await this.collections.find(ref);
    if (collectionId === undefined) return { ok: false, reason: 'not_found' };
    return this.write(ref.clusterId, idempotency, true, async (q) => {
      const [current] = await q.unsafe<DocumentRow[]>(
        `SELECT ${COLUMNS} FROM documents WHERE collection_id = $1 AND id = $2 FOR UPDATE`,
        [collectionId, id],
      );
      if (!current) throw new Abort('not_found');
      const [stored] = await q.unsafe<DocumentRow[]>(
        `UPDATE documents SET data = $1::text::jsonb, updated_at = $2 WHERE collection_id = $3 AND id = $4 RETURNING ${COLUMNS}`,
        [JSON.stringify(change(JSON.parse(current.data))), updatedAt, collectionId, id],
      );
      return composeDocument(stored!);
    });
  }

  async delete(ref: CollectionRef, id: string, idempotency?: IdempotencyRecordInput): Promise<WriteResult> {
    const collectionId = await this.collections.find(ref);
    if (collectionId === undefined) return { ok: false, reason: 'not_found' };
    return this.write(ref.clusterId, idempotency, false, async (q) => {
      const removed = await q.unsafe(
        `WITH removed AS (
           DELETE FROM documents WHERE collection_id = $1 AND id = $2 RETURNING 1
         )
         INSERT INTO collection_counters (collection_id, shard, n) SELECT $1, $3, -1 FROM removed
         ON CONFLICT (collection_id, shard) DO UPDATE SET n = collection_counters.n - 1
         RETURNING 1`,
        [collectionId, id, shard()],
      );
      if (removed.count === 0) throw new Abort('not_found');
      return deletedBody(id);
    });
  }

  /**
   * Runs `apply` alone when it is one atomic statement, or in a transaction when it needs one or when an
   * idempotent answer must be recorded with it; an Abort rolls everything back.
   */
  private async write(
    clusterId: string,
    idempotency: IdempotencyRecordInput | undefined,
    needsTransaction: boolean,
    apply: (q: Query) => Promise<string>,
  ): Promise<WriteResult> {
    try {
      if (!idempotency && !needsTransaction) return { ok: true, body: await apply(this.sql) };
      const body = await this.sql.begin(async (tx) => {
        const result = await apply(tx);
        if (idempotency && !(await this.idempotency.record(tx, clusterId, idempotency, result))) {
          throw new Abort('idempotency_race');
        }
        return result;
      });
      return { ok: true, body: body as string };
    } catch (error) {
      if (error instanceof Abort) return { ok: false, reason: error.reason };
      throw error;
    }
  }
}
