import type { Writable } from 'node:stream';
import type { Sql, TransactionSql } from 'postgres';
import type {
  BackupRow,
  BackupStore,
  RestoreEntry,
  SnapshotCollection,
  SnapshotDocument,
  SnapshotReader,
} from '../backups.js';
import { PostgresCollections } from './collections.js';

const COLUMNS = `id, cluster_id AS "clusterId", status, created_at AS "createdAt", completed_at AS "completedAt",
  document_count::float8 AS "documentCount", size_bytes::float8 AS "sizeBytes", checksum`;

/** Bytes a restore gathers before it writes to its COPY: one socket write per megabyte, not one per document. */
const COPY_BATCH = 1 << 20;

/** Backups on PostgreSQL. */
export class PostgresBackups implements BackupStore {
  private readonly collectionRows: PostgresCollections;

  constructor(private readonly sql: Sql) {
    this.collectionRows = new PostgresCollections(sql);
  }

  async create(row: BackupRow): Promise<void> {
    await this.sql`
      INSERT INTO backups (id, cluster_id, status, created_at, completed_at, document_count, size_bytes, checksum)
      VALUES (${row.id}, ${row.clusterId}, ${row.status}, ${row.createdAt}, ${row.completedAt}, ${row.documentCount},
              ${row.sizeBytes}, ${row.checksum})`;
  }

  async find(id: string): Promise<BackupRow | null> {
    const [row] = await this.sql.unsafe<BackupRow[]>(`SELECT ${COLUMNS} FROM backups WHERE id = $1`, [id]);
    return row ?? null;
  }

  async list(clusterId: string): Promise<BackupRow[]> {
    return this.sql.unsafe<BackupRow[]>(
      `SELECT ${COLUMNS} FROM backups WHERE cluster_id = $1 ORDER BY created_at DESC, id DESC`,
      [clusterId],
    );
  }

  async update(row: BackupRow): Promise<boolean> {
    const result = await this.sql`
      UPDATE backups SET status = ${row.status}, completed_at = ${row.completedAt},
        document_count = ${row.documentCount}, size_bytes = ${row.sizeBytes}, checksum = ${row.checksum}
      WHERE id = ${row.id}`;
    return result.count > 0;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.sql`DELETE FROM backups WHERE id = ${id}`;
    return result.count > 0;
  }

  async documentCount(clusterId: string): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`
      SELECT COALESCE(SUM(cc.n), 0)::float8 AS n FROM collection_counters cc
      JOIN collections c ON c.id = cc.collection_id WHERE c.cluster_id = ${clusterId}`;
    return row!.n;
  }

  async snapshot<T>(clusterId: string, read: (reader: SnapshotReader) => Promise<T>): Promise<T> {
    // Every statement of a REPEATABLE READ transaction sees the snapshot its first statement took.
    return this.sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (tx) => {
      // Documents are read by their collection's row id, so each chunk is a range of the primary key
      // (collection_id, id) rather than a join the planner may sort whole for every chunk.
      const rowIds = new Map<string, string | null>();
      const rowIdOf = async (collection: string) => {
        if (!rowIds.has(collection)) {
          const [row] = await tx<{ id: string }[]>`
            SELECT id FROM collections WHERE cluster_id = ${clusterId} AND name = ${collection}`;
          rowIds.set(collection, row?.id ?? null);
        }
        return rowIds.get(collection)!;
      };
      return read({
        collections: () => collectionsOf(tx, clusterId),
        documents: async (collection, afterId, limit) => {
          const rowId = await rowIdOf(collection);
          if (rowId === null) return [];
          return [
            ...(await tx<SnapshotDocument[]>`
              SELECT id, data::text AS data, created_at AS "createdAt", updated_at AS "updatedAt"
              FROM documents WHERE collection_id = ${rowId} AND id > ${afterId}
              ORDER BY id LIMIT ${limit}`),
          ];
        },
      });
    }) as Promise<T>;
  }

  async replaceCollections(clusterId: string, entries: AsyncIterable<RestoreEntry>) {
    // Collection rows are made (or found) before the transaction: they are never removed, and an empty one is
    // not listed, so one left behind by a failed restore changes nothing a caller sees.
    return this.sql.begin(async (tx) => {
      let collections = 0;
      let documents = 0;
      let current: { name: string; rowId: string; copy: CopyIn } | null = null;
      const close = async () => {
        if (!current) return;
        const rows = await current.copy.end();
        if (rows > 0)
          await tx`INSERT INTO collection_counters (collection_id, shard, n) VALUES (${current.rowId}, 0, ${rows})`;
        documents += rows;
      };
      try {
        for await (const entry of entries) {
          if (entry.type === 'collection') {
            await close();
            current = null;
            const { name, validator } = entry.collection;
            const rowId = await this.collectionRows.ensure({ clusterId, collection: name });
            collections++;
            await tx`DELETE FROM documents WHERE collection_id = ${rowId}`;
            await tx`DELETE FROM collection_counters WHERE collection_id = ${rowId}`;
            await tx`DELETE FROM collection_validators WHERE cluster_id = ${clusterId} AND collection = ${name}`;
            if (validator)
              await tx`
                INSERT INTO collection_validators (cluster_id, collection, schema, level, created_at, updated_at)
                VALUES (${clusterId}, ${name}, ${validator.schema}, ${validator.level}, ${validator.createdAt}, ${validator.updatedAt})`;
            current = { name, rowId, copy: await CopyIn.open(tx, rowId) };
          } else {
            if (entry.collection !== current?.name) throw new Error('A document before its collection');
            await current.copy.write(entry.document);
          }
        }
        await close();
      } catch (error) {
        // A COPY left open would hold the connection: end it with the error, and the transaction rolls back.
        current?.copy.fail(error);
        throw error;
      }
      return { collections, documents };
    }) as Promise<{ collections: number; documents: number }>;
  }

  async cleanUp(): Promise<void> {
    // A restore is one transaction: a crash leaves nothing behind.
  }
}

/** One field of COPY's text format: backslash, tab, line feed and carriage return escaped. */
function copyField(text: string): string {
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!)
    : text;
}

/**
 * A `COPY documents FROM STDIN` of one collection: several times as fast as multi-row INSERTs, and PostgreSQL
 * parses the jsonb itself.
 */
class CopyIn {
  /** Rows are encoded straight into a block of bytes: no megabyte strings for the garbage collector. */
  private block = Buffer.allocUnsafe(COPY_BATCH);
  private used = 0;
  private rows = 0;
  private ended = false;

  private constructor(
    private readonly tx: TransactionSql,
    private readonly stream: Writable,
    private readonly rowId: string,
  ) {
    // An error of the COPY destroys the stream; `write` and `end` then throw it.
    stream.on('error', () => {});
  }

  static async open(tx: TransactionSql, rowId: string): Promise<CopyIn> {
    const stream = await tx
      .unsafe(`COPY documents (collection_id, id, data, created_at, updated_at) FROM STDIN`)
      .writable();
    return new CopyIn(tx, stream, rowId);
  }

  async write(row: SnapshotDocument): Promise<void> {
    const line = `${this.rowId}\t${copyField(row.id)}\t${copyField(row.data)}\t${copyField(row.createdAt)}\t${copyField(row.updatedAt)}\n`;
    // A row that may not fit (UTF-8 takes at most 3 bytes per UTF-16 unit) goes into a block of its own.
    if (this.used + line.length * 3 > this.block.length) {
      await this.flush();
      if (line.length * 3 > this.block.length) this.block = Buffer.allocUnsafe(line.length * 3);
    }
    this.used += this.block.write(line, this.used);
    this.rows++;
  }

  /** Writes the gathered rows and waits until the socket took them (so the COPY's memory stays one block). */
  private async flush(): Promise<void> {
    if (this.used === 0) return;
    const bytes = this.block.subarray(0, this.used);
    this.block = Buffer.allocUnsafe(COPY_BATCH);
    this.used = 0;
    await new Promise<void>((resolve, reject) =>
      this.stream.write(bytes, (error) => (error ? reject(this.stream.errored ?? error) : resolve())),
    );
  }

  /**
   * Ends the COPY; resolves with the rows written. With nothing left to write, `end` hands the COPY its end at
   * once. postgres.js never calls back a COPY whose error comes after its end, so the end is awaited through a
   * statement queued behind it instead, which fails in the aborted transaction.
   */
  async end(): Promise<number> {
    await this.flush();
    this.ended = true;
    this.stream.end();
    await this.tx`SELECT 1`;
    return this.rows;
  }

  fail(error: unknown): void {
    if (!this.ended && !this.stream.destroyed) this.stream.destroy(error as Error);
  }
}

/** The collections of a cluster with documents, a validator or an index, read in the snapshot's transaction. */
async function collectionsOf(tx: TransactionSql, clusterId: string): Promise<SnapshotCollection[]> {
  const names = await tx<{ name: string }[]>`
    SELECT c.name FROM collections c WHERE c.cluster_id = ${clusterId}
      AND EXISTS (SELECT 1 FROM documents d WHERE d.collection_id = c.id)
    UNION SELECT collection FROM collection_validators WHERE cluster_id = ${clusterId}
    UNION SELECT collection FROM collection_indexes WHERE cluster_id = ${clusterId}`;
  const byName = new Map<string, SnapshotCollection>();
  for (const { name } of [...names].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
    byName.set(name, { name, validator: null, indexes: [] });
  const validators = await tx<(NonNullable<SnapshotCollection['validator']> & { collection: string })[]>`
    SELECT collection, schema, level, created_at AS "createdAt", updated_at AS "updatedAt"
    FROM collection_validators WHERE cluster_id = ${clusterId}`;
  for (const { collection, ...validator } of validators) {
    const found = byName.get(collection);
    if (found) found.validator = validator;
  }
  const indexes = await tx<
    { collection: string; name: string; fields: string; unique: boolean; createdAt: string }[]
  >`
    SELECT collection, name, fields, is_unique AS "unique", created_at AS "createdAt" FROM collection_indexes
    WHERE cluster_id = ${clusterId} AND status = 'ready' ORDER BY collection COLLATE "C", name COLLATE "C"`;
  for (const row of indexes)
    byName.get(row.collection)?.indexes.push({
      name: row.name,
      fields: JSON.parse(row.fields) as SnapshotCollection['indexes'][number]['fields'],
      unique: row.unique,
      createdAt: row.createdAt,
    });
  return [...byName.values()];
}
