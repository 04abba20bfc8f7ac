import type Database from 'better-sqlite3';
import { documentLine, LINE_BLOCK_BYTES, LineBlock } from '../../services/backup-lines.js';
import type { DocumentLineBlock, DocumentTuple, SnapshotCollection, SnapshotDocument } from '../backups.js';

/** Documents read per step of a collection's lines: fewer, larger reads cost less per document. */
const LINES_PAGE = 5000;

/** The reads of one cluster's snapshot, on a connection whose read transaction holds it (synchronous). */
export class SnapshotReads {
  private readonly stmt;

  constructor(
    db: Database.Database,
    private readonly clusterId: string,
  ) {
    this.stmt = {
      collections: db.prepare<[string, string, string], { name: string }>(
        `SELECT name FROM collections WHERE cluster_id = ? AND doc_count > 0
         UNION SELECT collection FROM collection_validators WHERE cluster_id = ?
         UNION SELECT collection FROM collection_indexes WHERE cluster_id = ? ORDER BY 1`,
      ),
      validators: db.prepare<
        [string],
        { collection: string; schema: string; level: 'strict' | 'off'; createdAt: string; updatedAt: string }
      >(
        `SELECT collection, schema, level, created_at AS createdAt, updated_at AS updatedAt
         FROM collection_validators WHERE cluster_id = ?`,
      ),
      indexes: db.prepare<
        [string],
        { collection: string; name: string; fields: string; isUnique: number; createdAt: string }
      >(
        `SELECT collection, name, fields, is_unique AS isUnique, created_at AS createdAt FROM collection_indexes
         WHERE cluster_id = ? AND status = 'ready' ORDER BY collection, name`,
      ),
      documents: db.prepare<[string, string, string, number], SnapshotDocument>(
        `SELECT d.id, d.data, d.created_at AS createdAt, d.updated_at AS updatedAt FROM documents d
         JOIN collections c ON c.id = d.collection_id
         WHERE c.cluster_id = ? AND c.name = ? AND d.id > ? ORDER BY d.id LIMIT ?`,
      ),
      tuples: db
        .prepare<[string, string, string, number], DocumentTuple>(
          `SELECT d.id, d.data, d.created_at, d.updated_at FROM documents d
           JOIN collections c ON c.id = d.collection_id
           WHERE c.cluster_id = ? AND c.name = ? AND d.id > ? ORDER BY d.id LIMIT ?`,
        )
        .raw(),
    };
  }

  collections(): SnapshotCollection[] {
    const byName = new Map<string, SnapshotCollection>();
    for (const { name } of this.stmt.collections.all(this.clusterId, this.clusterId, this.clusterId))
      byName.set(name, { name, validator: null, indexes: [] });
    for (const { collection, ...validator } of this.stmt.validators.all(this.clusterId)) {
      const found = byName.get(collection);
      if (found) found.validator = validator;
    }
    for (const row of this.stmt.indexes.all(this.clusterId))
      byName.get(row.collection)?.indexes.push({
        name: row.name,
        fields: JSON.parse(row.fields) as SnapshotCollection['indexes'][number]['fields'],
        unique: row.isUnique === 1,
        createdAt: row.createdAt,
      });
    return [...byName.values()];
  }

  documents(collection: string, afterId: string, limit: number): SnapshotDocument[] {
    return this.stmt.documents.all(this.clusterId, collection, afterId, limit);
  }

  tuples(collection: string, afterId: string, limit: number): DocumentTuple[] {
    return this.stmt.tuples.all(this.clusterId, collection, afterId, limit) as unknown as DocumentTuple[];
  }

  /** The collection's documents as blocks of archive lines, from the first by id. */
  lines(collection: string, collectionJson: string): LineCursor {
    return new LineCursor(this, collection, collectionJson);
  }
}

/** A block of lines, and whether the collection has no documents after it. */
export interface NextLines extends DocumentLineBlock {
  done: boolean;
}

/** A collection's documents made into archive lines a block at a time, read a page at a time after the last. */
export class LineCursor {
  private page: DocumentTuple[] = [];
  private at = 0;
  private afterId = '';
  private ended = false;

  constructor(
    private readonly reads: SnapshotReads,
    private readonly collection: string,
    private readonly collectionJson: string,
  ) {}

  /**
   * The next block: as many whole lines as fit in `LINE_BLOCK_BYTES` (a longer line alone in a block of its own),
   * written into `spare` when given (a block the caller is done with).
   */
  next(spare?: Buffer): NextLines {
    let block = spare?.length === LINE_BLOCK_BYTES ? new LineBlock(spare) : LineBlock.sized(LINE_BLOCK_BYTES);
    let count = 0;
    while (this.left()) {
      const line = documentLine(this.collectionJson, this.page[this.at]!);
      if (!block.add(line)) {
        if (count > 0) break;
        block = LineBlock.sized(LINE_BLOCK_BYTES, line);
      }
      this.at++;
      count++;
    }
    return { bytes: block.filled(), count, done: !this.left() };
  }

  /** Whether a document is left, reading the next page when this one is used up. */
  private left(): boolean {
    if (this.at < this.page.length) return true;
    if (this.ended) {
      this.page = [];
      this.at = 0;
      return false;
    }
    this.page = this.reads.tuples(this.collection, this.afterId, LINES_PAGE);
    this.at = 0;
    this.ended = this.page.length < LINES_PAGE;
    if (this.page.length > 0) this.afterId = this.page.at(-1)![0];
    return this.page.length > 0;
  }
}
