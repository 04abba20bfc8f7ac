/** Seeding for PostgreSQL (see seed.mjs): rows streamed in with COPY, the count in the sharded counters. */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import postgres from 'postgres';
import { seedRows } from './seed-rows.mjs';

/** Connects beside the running server and finds the collection's row id. */
async function open(url, { clusterId, collection }) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const [row] =
    await sql`SELECT id FROM collections WHERE cluster_id = ${clusterId} AND name = ${collection}`;
  if (!row) {
    await sql.end();
    throw new Error(`seed: collection ${collection} does not exist yet (insert one document first)`);
  }
  return { sql, collectionId: row.id };
}

/** COPY's text format: one line per row, tab-separated, backslashes doubled. */
function* copyText(collectionId, count) {
  let chunk = '';
  for (const { id, data, createdAt } of seedRows(count)) {
    chunk += `${collectionId}\t${id}\t${data.replaceAll('\\', '\\\\')}\t${createdAt}\t${createdAt}\n`;
    if (chunk.length > 1 << 20) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/**
 * Replaces the collection's counter shards (which the list route adds up as `total`) with one row holding the
 * true count, then lets PostgreSQL settle the way autovacuum eventually would after a bulk load (visibility map,
 * hint bits, statistics) and flushes it, so that none of this happens in the middle of a measurement.
 */
async function recountAndSettle(sql, collectionId) {
  await sql.begin((tx) => [
    tx`DELETE FROM collection_counters WHERE collection_id = ${collectionId}`,
    tx`INSERT INTO collection_counters (collection_id, shard, n)
       SELECT ${collectionId}, 0, count(*) FROM documents WHERE collection_id = ${collectionId}`,
  ]);
  await sql`VACUUM (ANALYZE) documents`;
  await sql`CHECKPOINT`;
}

/** Adds seeded documents to `collection` until it holds `total`; resolves with `{ added, bytes }` (the table's). */
export async function seedPostgres(url, target) {
  const { sql, collectionId } = await open(url, target);
  try {
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM documents WHERE collection_id = ${collectionId}`;
    const missing = target.total - n;
    // The jsonb column parses the text exactly as the server's `$3::text::jsonb` does.
    const copy =
      await sql`COPY documents (collection_id, id, data, created_at, updated_at) FROM STDIN`.writable();
    await pipeline(Readable.from(copyText(collectionId, missing)), copy);
    await recountAndSettle(sql, collectionId);
    const [{ bytes }] = await sql`SELECT pg_total_relation_size('documents')::float8 AS bytes`;
    return { added: missing, bytes };
  } finally {
    await sql.end();
  }
}

/** Removes the documents written after `lastId` (by an insert benchmark) so the collection is back to its size. */
export async function trimPostgres(url, target, lastId) {
  const { sql, collectionId } = await open(url, target);
  try {
    await sql`DELETE FROM documents WHERE collection_id = ${collectionId} AND id > ${lastId}`;
    await recountAndSettle(sql, collectionId);
  } finally {
    await sql.end();
  }
}
