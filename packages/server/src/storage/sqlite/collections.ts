import type Database from 'better-sqlite3';
import type { CollectionRef } from '../documents.js';

/** The ids found so far, per database: one cache that every user of a connection shares, so `forget` reaches all. */
const caches = new WeakMap<Database.Database, Map<string, number>>();

/**
 * Maps (cluster, collection name) to the collection's row id. Only a restore's swap gives a name another row (and
 * calls `forget`), so a found id can be cached until then.
 */
export class SqliteCollections {
  private readonly cache: Map<string, number>;
  private readonly findStmt: Database.Statement<[string, string], { id: number }>;
  private readonly createStmt: Database.Statement<[string, string]>;

  constructor(db: Database.Database) {
    const cache = caches.get(db) ?? new Map<string, number>();
    caches.set(db, cache);
    this.cache = cache;
    this.findStmt = db.prepare('SELECT id FROM collections WHERE cluster_id = ? AND name = ?');
    this.createStmt = db.prepare(
      'INSERT INTO collections (cluster_id, name) VALUES (?, ?) ON CONFLICT DO NOTHING',
    );
  }

  /** The collection's id, or undefined when nothing was ever written to it. */
  find(ref: CollectionRef): number | undefined {
    const cacheKey = `${ref.clusterId}\u0000${ref.collection}`;
    let id = this.cache.get(cacheKey);
    if (id === undefined) {
      id = this.findStmt.get(ref.clusterId, ref.collection)?.id;
      if (id !== undefined) this.cache.set(cacheKey, id);
    }
    return id;
  }

  /** The collection's id, creating the collection first when needed. Call inside the write's transaction. */
  ensure(ref: CollectionRef): number {
    const found = this.find(ref);
    if (found !== undefined) return found;
    this.createStmt.run(ref.clusterId, ref.collection);
    return this.find(ref)!;
  }

  /** Drops the cached id of the collection: its name now names another row. */
  forget(ref: CollectionRef): void {
    this.cache.delete(`${ref.clusterId}\u0000${ref.collection}`);
  }
}
