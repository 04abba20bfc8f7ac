import type Database from 'better-sqlite3';
import { preconditionFails } from '../../document-etag.js';
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
import type { Captured } from '../outbox.js';
import { uniqueViolation } from '../schema.js';
import { SqliteCollections } from './collections.js';
import type { GroupCommit } from './group-commit.js';
import type { SqliteIdempotency } from './idempotency.js';
import type { SqliteOutbox } from './outbox.js';
import { SqliteQuerySql } from './query.js';
import { failedIndexName, isUniqueFailure } from './schema.js';

const COLUMNS = 'id, data, created_at AS createdAt, updated_at AS updatedAt';
const NOT_FOUND: OperationResult = { ok: false, reason: 'not_found' };
const CONFLICT: OperationResult = { ok: false, reason: 'conflict' };
const PRECONDITION_FAILED: OperationResult = { ok: false, reason: 'precondition_failed' };
const REFUSED: OperationResult = { ok: false, reason: 'refused' };
/** Rows per multi-row INSERT: past a few dozen the gain levels off, and 5 parameters a row stay far below limits. */
const ROWS_PER_INSERT = 50;

type InsertOperation = Extract<DocumentOperation, { kind: 'insert' }>;

/** Thrown inside a multi-row insert's savepoint when some id was taken, to undo the rows it did insert. */
class IdTaken extends Error {}

/** Documents on SQLite: one row per document, the caller's fields as JSON text, counts kept per collection. */
export class SqliteDocuments extends SingleWritesAsBatches {
  private readonly collections: SqliteCollections;
  private readonly listStatements = new Map<string, Database.Statement>();
  /** Multi-row INSERT statements by their number of rows. */
  private readonly insertStatements = new Map<number, Database.Statement>();
  private readonly stmt;
  private readonly insertAllOrNone;

  constructor(
    private readonly db: Database.Database,
    private readonly group: GroupCommit,
    private readonly idempotency: SqliteIdempotency,
    private readonly outbox: SqliteOutbox,
  ) {
    super();
    this.collections = new SqliteCollections(db);
    this.stmt = {
      get: db.prepare<[number, string], DocumentRow>(
        `SELECT ${COLUMNS} FROM documents WHERE collection_id = ? AND id = ?`,
      ),
      count: db.prepare<[number], { doc_count: number }>('SELECT doc_count FROM collections WHERE id = ?'),
      // A taken id inserts nothing (changes = 0) instead of throwing, so a batch can go on past it.
      insert: db.prepare(
        'INSERT INTO documents (collection_id, id, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (collection_id, id) DO NOTHING',
      ),
      replace: db.prepare<[string, string, number, string], { created_at: string }>(
        'UPDATE documents SET data = ?, updated_at = ? WHERE collection_id = ? AND id = ? RETURNING created_at',
      ),
      remove: db.prepare('DELETE FROM documents WHERE collection_id = ? AND id = ?'),
      bump: db.prepare('UPDATE collections SET doc_count = doc_count + ? WHERE id = ?'),
      index: db.prepare<[string], { name: string; fields: string }>(
        'SELECT name, fields FROM collection_indexes WHERE engine_name = ?',
      ),
    };
    // Called inside the batch's transaction, better-sqlite3 runs this one in a savepoint.
    this.insertAllOrNone = db.transaction((collectionId: number, rows: readonly DocumentRow[]) => {
      const args: unknown[] = [];
      for (const row of rows) args.push(collectionId, row.id, row.data, row.createdAt, row.updatedAt);
      if (this.insertStatement(rows.length).run(args).changes !== rows.length) throw new IdTaken();
    });
  }

  async list(ref: CollectionRef, options: ListOptions): Promise<{ rows: DocumentRow[]; total: number }> {
    const collectionId = this.collections.find(ref);
    if (collectionId === undefined) return { rows: [], total: 0 };
    // The SQL helper's builder writes the ORDER BY, so the list route and SQL sort alike by construction.
    const builder = new SqliteQuerySql();
    const sql = `SELECT ${COLUMNS} FROM documents WHERE collection_id = ${builder.bind(collectionId)} ORDER BY ${builder.orderBy(
      options.sort,
    )} LIMIT ${builder.bind(options.limit)} OFFSET ${builder.bind(options.skip)}`;
    let statement = this.listStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.listStatements.set(sql, statement);
    }
    const read = this.db.transaction(() => {
      const rows = statement.all(builder.params) as DocumentRow[];
      const total = this.stmt.count.get(collectionId)?.doc_count ?? 0;
      return { rows, total };
    });
    return read();
  }

  async get(ref: CollectionRef, id: string): Promise<DocumentRow | null> {
    const collectionId = this.collections.find(ref);
    if (collectionId === undefined) return null;
    return this.stmt.get.get(collectionId, id) ?? null;
  }

  /**
   * Runs the operations in their own savepoint of the next group commit (`group-commit.ts`): writes that arrive
   * together share one transaction and one sync to disk, and this one settles once that transaction is durable.
   * A thrown BatchAbort or Abort rolls back this write alone.
   */
  async apply(
    clusterId: string,
    operations: readonly DocumentOperation[],
    options: ApplyOptions,
  ): Promise<ApplyOutcome> {
    const ids = this.collectionIds(clusterId, operations);
    try {
      const { outcome, captured } = await this.group.run(() =>
        this.applyAll(clusterId, operations, options, ids),
      );
      this.outbox.committed(captured);
      return outcome;
    } catch (error) {
      if (error instanceof BatchAbort)
        return { ok: false, reason: 'aborted', index: error.index, result: error.result };
      if (error instanceof Abort) return { ok: false, reason: 'idempotency_race' };
      throw error;
    }
  }

  /**
   * The collections' row ids. Missing collections are created before the transaction, each committing on its
   * own: an id cached inside a transaction that then rolled back would name no row.
   */
  private collectionIds(
    clusterId: string,
    operations: readonly DocumentOperation[],
  ): Map<string, number | undefined> {
    const { created, existing } = collectionsOf(operations);
    const ids = new Map<string, number | undefined>();
    for (const collection of created) ids.set(collection, this.collections.ensure({ clusterId, collection }));
    for (const collection of existing) ids.set(collection, this.collections.find({ clusterId, collection }));
    return ids;
  }

  /**
   * The body of a write, inside its savepoint: every operation in order, their events (outbox), then the counters,
   * then the idempotent answer.
   */
  private applyAll(
    clusterId: string,
    operations: readonly DocumentOperation[],
    options: ApplyOptions,
    ids: Map<string, number | undefined>,
  ): { outcome: ApplyOutcome; captured: Captured | undefined } {
    // The outbox hook: null unless a subscription of the cluster could want these operations' events.
    const capture = this.outbox.open(clusterId, operations, ids);
    const deltas = new Map<number, number>();
    const results: OperationResult[] = [];
    for (let index = 0; index < operations.length; ) {
      const run = insertRunLength(operations, index, ids);
      if (
        run > 1 &&
        this.insertMany(operations.slice(index, index + run) as InsertOperation[], ids, deltas)
      ) {
        for (let end = index + run; index < end; index++) {
          results.push({ ok: true, row: (operations[index] as InsertOperation).row });
        }
        continue;
      }
      // One by one: any other operation, or a run in which some id was taken, so that each gets its own result.
      for (let end = index + run; index < end; index++) {
        const result = this.applyOne(operations[index]!, ids, deltas);
        if (!result.ok && options.atomic) throw new BatchAbort(index, result);
        results.push(result);
      }
    }
    const captured = capture?.record(results);
    // One counter write per collection, however many documents the batch added or removed.
    for (const [collectionId, delta] of deltas) if (delta !== 0) this.stmt.bump.run(delta, collectionId);
    const { idempotency } = options;
    if (idempotency && !this.idempotency.record(clusterId, idempotency, idempotency.answer(results)))
      throw new Abort('idempotency_race');
    return { outcome: { ok: true, results }, captured };
  }

  /**
   * Inserts documents into one collection with a single statement, all or none: false, with nothing written, when
   * some id is taken (by a stored document or an earlier row of the run). One statement for many rows is what
   * brings a batch near SQLite's own speed, since the cost of a statement is most of a small row's insert.
   */
  private insertMany(
    run: readonly InsertOperation[],
    ids: Map<string, number | undefined>,
    deltas: Map<number, number>,
  ): boolean {
    const collectionId = ids.get(run[0]!.collection)!;
    try {
      this.insertAllOrNone(
        collectionId,
        run.map((operation) => operation.row),
      );
    } catch (error) {
      // A taken id, or a unique index broken: row by row, each operation gets its own result.
      if (error instanceof IdTaken || isUniqueFailure(error)) return false;
      throw error;
    }
    deltas.set(collectionId, (deltas.get(collectionId) ?? 0) + run.length);
    return true;
  }

  private insertStatement(rows: number): Database.Statement {
    let statement = this.insertStatements.get(rows);
    if (!statement) {
      statement = this.db.prepare(
        `INSERT INTO documents (collection_id, id, data, created_at, updated_at) VALUES ${Array(rows)
          .fill('(?, ?, ?, ?, ?)')
          .join(', ')} ON CONFLICT (collection_id, id) DO NOTHING`,
      );
      this.insertStatements.set(rows, statement);
    }
    return statement;
  }

  /**
   * One operation with the prepared statements. A failure is found before anything is written, or (a unique
   * index broken) fails the one statement, which SQLite undoes by itself.
   */
  private applyOne(
    operation: DocumentOperation,
    ids: Map<string, number | undefined>,
    deltas: Map<number, number>,
  ): OperationResult {
    try {
      return this.applyOneUnchecked(operation, ids, deltas);
    } catch (error) {
      const engineName = isUniqueFailure(error) ? failedIndexName(error) : null;
      const index = engineName ? this.stmt.index.get(engineName) : undefined;
      if (!index) throw error;
      return {
        ok: false,
        reason: 'refused',
        violation: uniqueViolation({ name: index.name, fields: JSON.parse(index.fields) }),
      };
    }
  }

  private applyOneUnchecked(
    operation: DocumentOperation,
    ids: Map<string, number | undefined>,
    deltas: Map<number, number>,
  ): OperationResult {
    if (operation.kind === 'refused')
      return operation.violation ? { ok: false, reason: 'refused', violation: operation.violation } : REFUSED;
    const collectionId = ids.get(operation.collection);
    if (collectionId === undefined) return NOT_FOUND;
    switch (operation.kind) {
      case 'insert': {
        const { row } = operation;
        const inserted = this.stmt.insert.run(collectionId, row.id, row.data, row.createdAt, row.updatedAt);
        if (inserted.changes === 0) return CONFLICT;
        deltas.set(collectionId, (deltas.get(collectionId) ?? 0) + 1);
        return { ok: true, row };
      }
      case 'get': {
        const row = this.stmt.get.get(collectionId, operation.id);
        if (!row) return NOT_FOUND;
        return preconditionFails(operation.ifMatch, row) ? PRECONDITION_FAILED : { ok: true, row };
      }
      case 'replace': {
        const { id, data, updatedAt } = operation;
        if (operation.ifMatch !== undefined) {
          const current = this.stmt.get.get(collectionId, id);
          if (!current) return NOT_FOUND;
          if (preconditionFails(operation.ifMatch, current)) return PRECONDITION_FAILED;
        }
        const stored = this.stmt.replace.get(data, updatedAt, collectionId, id);
        if (!stored) return NOT_FOUND;
        return { ok: true, row: { id, data, createdAt: stored.created_at, updatedAt } };
      }
      case 'update': {
        const { id, updatedAt } = operation;
        const current = this.stmt.get.get(collectionId, id);
        if (!current) return NOT_FOUND;
        if (preconditionFails(operation.ifMatch, current)) return PRECONDITION_FAILED;
        const changed = operation.change(JSON.parse(current.data));
        const violation = operation.check?.(changed);
        if (violation) return { ok: false, reason: 'refused', violation };
        const data = JSON.stringify(changed);
        this.stmt.replace.get(data, updatedAt, collectionId, id);
        return { ok: true, row: { id, data, createdAt: current.createdAt, updatedAt } };
      }
      case 'delete': {
        if (operation.ifMatch !== undefined) {
          const current = this.stmt.get.get(collectionId, operation.id);
          if (!current) return NOT_FOUND;
          if (preconditionFails(operation.ifMatch, current)) return PRECONDITION_FAILED;
        }
        if (this.stmt.remove.run(collectionId, operation.id).changes === 0) return NOT_FOUND;
        deltas.set(collectionId, (deltas.get(collectionId) ?? 0) - 1);
        return { ok: true, deleted: operation.id };
      }
    }
  }
}

/**
 * How many operations from `start` on are inserts into the same existing collection, at most ROWS_PER_INSERT;
 * 1 for any other operation.
 */
function insertRunLength(
  operations: readonly DocumentOperation[],
  start: number,
  ids: Map<string, number | undefined>,
): number {
  const first = operations[start]!;
  if (first.kind !== 'insert' || ids.get(first.collection) === undefined) return 1;
  const limit = Math.min(operations.length, start + ROWS_PER_INSERT);
  let end = start + 1;
  while (end < limit) {
    const next = operations[end]!;
    if (next.kind !== 'insert' || next.collection !== first.collection) break;
    end++;
  }
  return end - start;
}
