import type Database from 'better-sqlite3';
import { Abort } from '../abort.js';
import { composeDocument, deletedBody, jsonPath, SYSTEM_COLUMNS } from '../compose.js';
import type {
  CollectionRef,
  DocumentRow,
  DocumentStore,
  IdempotencyRecordInput,
  ListOptions,
  WriteResult,
} from '../types.js';
import { SqliteCollections } from './collections.js';
import type { SqliteIdempotency } from './idempotency.js';

const COLUMNS = 'id, data, created_at AS createdAt, updated_at AS updatedAt';

// Rank of a JSON type in the documented sort order (see typeRank in the contract).
const RANK = (param: string) =>
  `CASE json_type(data, ${param}) WHEN 'true' THEN 1 WHEN 'false' THEN 1 WHEN 'integer' THEN 2 WHEN 'real' THEN 2 WHEN 'text' THEN 3 WHEN 'array' THEN 4 WHEN 'object' THEN 4 ELSE 0 END`;

/** Documents on SQLite: one row per document, the caller's fields as JSON text, counts kept per collection. */
export class SqliteDocuments implements DocumentStore {
  private readonly collections: SqliteCollections;
  private readonly listStatements = new Map<string, Database.Statement>();
  private readonly stmt;

  constructor(
    private readonly db: Database.Database,
    private readonly idempotency: SqliteIdempotency,
  ) {
    this.collections = new SqliteCollections(db);
    this.stmt = {
      get: db.prepare<[number, string], DocumentRow>(
        `SELECT ${COLUMNS} FROM documents WHERE collection_id = ? AND id = ?`,
      ),
      count: db.prepare<[number], { doc_count: number }>('SELECT doc_count FROM collections WHERE id = ?'),
      insert: db.prepare(
        'INSERT INTO documents (collection_id, id, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      ),
      exists: db.prepare<[number, string], { created_at: string }>(
        'SELECT created_at FROM documents WHERE collection_id = ? AND id = ?',
      ),
      replace: db.prepare<[string, string, number, string], { created_at: string }>(
        'UPDATE documents SET data = ?, updated_at = ? WHERE collection_id = ? AND id = ? RETURNING created_at',
      ),
      remove: db.prepare('DELETE FROM documents WHERE collection_id = ? AND id = ?'),
      bump: db.prepare('UPDATE collections SET doc_count = doc_count + ? WHERE id = ?'),
    };
  }

  async list(ref: CollectionRef, options: ListOptions): Promise<{ rows: string[]; total: number }> {
    const collectionId = this.collections.find(ref);
    if (collectionId === undefined) return { rows: [], total: 0 };
    const { sql, params } = this.listQuery(options);
    let statement = this.listStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.listStatements.set(sql, statement);
    }
    const read = this.db.transaction(() => {
      const rows = statement.all(collectionId, ...params, options.limit, options.skip) as DocumentRow[];
      const total = this.stmt.count.get(collectionId)?.doc_count ?? 0;
      return { rows: rows.map(composeDocument), total };
    });
    return read();
  }

  private listQuery(options: ListOptions): { sql: string; params: string[] } {
    const order: string[] = [];
    const params: string[] = [];
    for (const key of options.sort) {
      const direction = key.descending ? 'DESC' : 'ASC';
      const column = key.path.length === 1 ? SYSTEM_COLUMNS[key.path[0]!] : undefined;
      if (column) {
        order.push(`${column} ${direction}`);
      } else if (key.path[0]! in SYSTEM_COLUMNS) {
      } else {
        // Arrays and objects tie (see typeRank in the contract), so their value takes no part in the order.
        order.push(
          `${RANK('?')} ${direction}`,
          `(CASE WHEN json_type(data, ?) IN ('array', 'object') THEN NULL ELSE json_extract(data, ?) END) ${direction}`,
        );
        const path = jsonPath(key.path);
        params.push(path, path, path);
      }
    }
    const last = options.sort.at(-1);
    if (!order.some((part) => part.startsWith('id '))) order.push(`id ${last?.descending ? 'DESC' : 'ASC'}`);
    return {
      sql: `SELECT ${COLUMNS} FROM documents WHERE collection_id = ? ORDER BY ${order.join(', ')} LIMIT ? OFFSET ?`,
      params,
    };
  }

  async get(ref: CollectionRef, id: string): Promise<string | null> {
    const collectionId = this.collections.find(ref);
    if (collectionId === undefined) return null;
    const row = this.stmt.get.get(collectionId, id);
    return row ? composeDocument(row) : null;
  }

  async insert(
    ref: CollectionRef,
    row: DocumentRow,
    idempotency?: IdempotencyRecordInput,
  ): Promise<WriteResult> {
    const body = composeDocument(row);
    return this.write(ref.clusterId, idempotency, () => {
      const collectionId = this.collections.ensure(ref);
      if (this.stmt.exists.get(collectionId, row.id)) throw new Abort('conflict');
      this.stmt.insert.run(collectionId, row.id, row.data, row.createdAt, row.updatedAt);
      this.stmt.bump.run(1, collectionId);
      return body;
    });
  }

  async replace(
    ref: CollectionRef,
    id: string,
    data: string,
    updatedAt: string,
    idempotency?: IdempotencyRecordInput,
  ): Promise<WriteResult> {
    return this.write(ref.clusterId, idempotency, () => {
      const collectionId = this.collections.find(ref);
      const stored =
        collectionId === undefined ? undefined : this.stmt.replace.get(data, updatedAt, collectionId, id);
      if (!stored) throw new Abort('not_found');
      return composeDocument({ id, data, createdAt: stored.created_at, updatedAt });
    });
  }

  async update(
    ref: CollectionRef,
    id: string,
    change: (data: Record<string, unknown>) => Record<string, unknown>,
    updatedAt: string,
    idempotency?: IdempotencyRecordInput,
  ): Promise<WriteResult> {
    return this.write(ref.clusterId, idempotency, () => {
      const collectionId = this.collections.find(ref);
      const current = collectionId === undefined ? undefined : this.stmt.get.get(collectionId, id);
      if (!current) throw new Abort('not_found');
      const data = JSON.stringify(change(JSON.parse(current.data)));
      this.stmt.replace.get(data, updatedAt, collectionId!, id);
      return composeDocument({ id, data, createdAt: current.createdAt, updatedAt });
    });
  }

  async delete(ref: CollectionRef, id: string, idempotency?: IdempotencyRecordInput): Promise<WriteResult> {
    return this.write(ref.clusterId, idempotency, () => {
      const collectionId = this.collections.find(ref);
      const removed = collectionId === undefined ? 0 : this.stmt.remove.run(collectionId, id).changes;
      if (removed === 0) throw new Abort('not_found');
      this.stmt.bump.run(-1, collectionId!);
      return deletedBody(id);
    });
  }

  /** Runs `apply` and records the idempotent answer in one transaction; an Abort rolls everything back. */
  private write(
    clusterId: string,
    idempotency: IdempotencyRecordInput | undefined,
    apply: () => string,
  ): WriteResult {
    try {
      const body = this.db
        .transaction(() => {
          const result = apply();
          if (idempotency && !this.idempotency.record(clusterId, idempotency, result))
            throw new Abort('idempotency_race');
          return result;
        })
        .immediate();
      return { ok: true, body };
    } catch (error) {
      if (error instanceof Abort) return { ok: false, reason: error.reason };
      throw error;
    }
  }
}
