import type { Sql, TransactionSql } from 'postgres';
import { Abort } from '../abort.js';
import { BatchAbort, collectionsOf, SingleWritesAsBatches } from '../batch.js';
import type {
  ApplyOptions,
  ApplyOutcome,
  CollectionRef,
  DocumentOperation,
  DocumentRow,
  ListOptions,
  OperationResult,
} from '../documents.js';
import { uniqueViolation } from '../schema.js';
import type { PostgresCollections } from './collections.js';
import { applyOperations, COLUMNS, selectOne } from './document-operations.js';
import type { PostgresIdempotency } from './idempotency.js';
import type { PostgresCapture, PostgresOutbox } from './outbox.js';
import { PostgresQuerySql } from './query.js';
import { failedIndexName } from './schema.js';

// deadlock_detected and serialization_failure: PostgreSQL rolled the transaction back and asks for a retry.
const TRANSIENT = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 5;

/** Documents on PostgreSQL: jsonb rows, counts kept in sharded counters, every write atomic. */
export class PostgresDocuments extends SingleWritesAsBatches {
  constructor(
    private readonly sql: Sql,
    private readonly collections: PostgresCollections,
    private readonly idempotency: PostgresIdempotency,
    private readonly outbox: PostgresOutbox,
  ) {
    super();
  }

  async list(ref: CollectionRef, options: ListOptions): Promise<{ rows: DocumentRow[]; total: number }> {
    const collectionId = await this.collections.find(ref);
    if (collectionId === undefined) return { rows: [], total: 0 };
    // The SQL helper's builder writes the ORDER BY, so the list route and SQL sort alike by construction.
    const builder = new PostgresQuerySql();
    const collection = builder.bind(collectionId);
    const order = builder.orderBy(options.sort);
    const limit = builder.bind(options.limit);
    const offset = builder.bind(options.skip);
    // One statement, so the page and the total come from one snapshot. The outer side has exactly one row,
    // so the nested loop hands on the page's rows in the order the inner query sorted them.
    const rows = await this.sql.unsafe<(DocumentRow & { total: string })[]>(
      `SELECT t.total, p.* FROM
         (SELECT COALESCE(SUM(n), 0) AS total FROM collection_counters WHERE collection_id = ${collection}) t
       LEFT JOIN LATERAL (
         SELECT ${COLUMNS} FROM documents WHERE collection_id = ${collection}
         ORDER BY ${order} LIMIT ${limit}::bigint OFFSET ${offset}::bigint
       ) p ON true`,
      builder.params as never[],
      { prepare: true },
    );
    const total = Number(rows[0]?.total ?? 0);
    return { rows: rows[0]?.id === null ? [] : rows, total };
  }

  async get(ref: CollectionRef, id: string): Promise<DocumentRow | null> {
    const collectionId = await this.collections.find(ref);
    if (collectionId === undefined) return null;
    const [row] = await selectOne(this.sql, collectionId, id);
    return row ?? null;
  }

  async apply(
    clusterId: string,
    operations: readonly DocumentOperation[],
    options: ApplyOptions,
  ): Promise<ApplyOutcome> {
    const ids = await this.collectionIds(clusterId, operations);
    // Clusters without subscriptions (the common case, known without a round trip) skip the outbox entirely.
    const known = this.outbox.watching(clusterId);
    const watched = typeof known === 'boolean' ? known : await known;
    let careful = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.run(clusterId, operations, options, ids, watched, careful);
      } catch (error) {
        // A unique index broken somewhere (nothing was kept): again, each operation in its own savepoint, so that
        // the one that broke it fails alone (or aborts an atomic batch) with its index named.
        if (!careful && failedIndexName(error)) {
          careful = true;
          attempt--;
          continue;
        }
        // A deadlock or serialization failure rolled everything back; the operations are safe to run again.
        if (attempt < MAX_ATTEMPTS && TRANSIENT.has((error as { code?: string }).code ?? '')) continue;
        throw error;
      }
    }
  }

  /**
   * Runs one statement that is atomic by itself without a transaction (the common single write of a cluster
   * without subscriptions, unless conditional: an If-Match locks the document first, so it needs one); anything
   * else in one transaction, where a thrown BatchAbort or Abort rolls all of
   * it back.
   */
  private async run(
    clusterId: string,
    operations: readonly DocumentOperation[],
    options: ApplyOptions,
    ids: Map<string, string | undefined>,
    watched: boolean,
    careful: boolean,
  ): Promise<ApplyOutcome> {
    const { idempotency } = options;
    let capture: PostgresCapture | null = null;
    try {
      if (
        !careful &&
        operations.length === 1 &&
        !idempotency &&
        operations[0]!.kind !== 'update' &&
        !('ifMatch' in operations[0]! && operations[0].ifMatch !== undefined) &&
        !watched
      ) {
        const [result] = await applyOperations(this.sql, operations, ids);
        if (!result!.ok && options.atomic) throw new BatchAbort(0, result!);
        return { ok: true, results: [result!] };
      }
      const outcome = await this.sql.begin(async (tx) => {
        // The outbox hook: its reads go out ahead of the operations, its events are written after them.
        capture = watched ? this.outbox.open(tx, clusterId, operations, ids) : null;
        const results = careful
          ? await this.applyOneByOne(tx, operations, ids)
          : await applyOperations(tx, operations, ids);
        const failed = options.atomic ? results.findIndex((result) => !result.ok) : -1;
        if (failed >= 0) throw new BatchAbort(failed, results[failed]!);
        await capture?.record(results);
        if (idempotency) {
          const answer = idempotency.answer(results);
          if (!(await this.idempotency.record(tx, clusterId, idempotency, answer)))
            throw new Abort('idempotency_race');
        }
        return { ok: true as const, results };
      });
      this.outbox.committed(capture);
      return outcome;
    } catch (error) {
      if (error instanceof BatchAbort)
        return { ok: false, reason: 'aborted', index: error.index, result: error.result };
      if (error instanceof Abort) return { ok: false, reason: 'idempotency_race' };
      throw error;
    }
  }

  /** The operations one at a time, each in a savepoint: one that breaks a unique index fails alone. */
  private async applyOneByOne(
    tx: TransactionSql,
    operations: readonly DocumentOperation[],
    ids: Map<string, string | undefined>,
  ): Promise<OperationResult[]> {
    const results: OperationResult[] = [];
    for (const operation of operations) {
      try {
        const [result] = await tx.savepoint((sp) => applyOperations(sp, [operation], ids));
        results.push(result!);
      } catch (error) {
        const engineName = failedIndexName(error);
        if (!engineName) throw error;
        const [index] = await tx.unsafe<{ name: string; fields: string }[]>(
          'SELECT name, fields FROM collection_indexes WHERE engine_name = $1',
          [engineName],
        );
        results.push({
          ok: false,
          reason: 'refused',
          violation: uniqueViolation(
            index ? { name: index.name, fields: JSON.parse(index.fields) } : { name: engineName, fields: [] },
          ),
        });
      }
    }
    return results;
  }

  /** The collections' row ids, creating those the batch inserts into (committed at once, as on first write). */
  private async collectionIds(
    clusterId: string,
    operations: readonly DocumentOperation[],
  ): Promise<Map<string, string | undefined>> {
    const { created, existing } = collectionsOf(operations);
    const entries = await Promise.all([
      ...[...created].map(async (collection) => {
        return [collection, await this.collections.ensure({ clusterId, collection })] as const;
      }),
      ...[...existing].map(async (collection) => {
        return [collection, await this.collections.find({ clusterId, collection })] as const;
      }),
    ]);
    return new Map(entries);
  }
}
