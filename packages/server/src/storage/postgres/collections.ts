import type { Sql } from 'postgres';
import type { CollectionRef } from '../documents.js';

/**
 * Maps (cluster, collection name) to the collection's row id. Collections are never renamed or removed,
 * so a found id can be cached for the life of the process, by every instance.
 */
export class PostgresCollections {
  private readonly cache = new Map<string, string>();

  constructor(private readonly sql: Sql) {}

  /** The collection's id, or undefined when nothing was ever written to it. */
  async find(ref: CollectionRef): Promise<string | undefined> {
    const cacheKey = `${ref.clusterId}\u0000${ref.collection}`;
    const cached = this.cache.get(cacheKey);
    if (cached !== undefined) return cached;
    const [row] = await this.sql<{ id: string }[]>`
      SELECT id FROM collections WHERE cluster_id = ${ref.clusterId} AND name = ${ref.collection}`;
    if (row) this.cache.set(cacheKey, row.id);
    return row?.id;
  }

  /** The collection's id, creating the collection first when needed. */
  async ensure(ref: CollectionRef): Promise<string> {
    const found = await this.find(ref);
    if (found !== undefined) return found;
    await this.sql`
      INSERT INTO collections (cluster_id, name) VALUES (${ref.clusterId}, ${ref.collection}) ON CONFLICT DO NOTHING`;
    return (await this.find(ref))!;
  }
}
