/**
 * Seeding for the scale benchmark: documents written straight into the server's database, exactly as the engine
 * stores them, because a million inserts through HTTP would take longer than the whole benchmark.
 *
 * The collection must exist first (one HTTP insert makes its row and its cached id). Then
 * `await seedSqlite(file, target)` or `await seedPostgres(url, target)`, with `target` = `{ clusterId, collection,
 * total }`, adds seeded documents 1, 2, … until the collection holds `total` (the documents already there count)
 * and sets the collection's count; the caller checks the result through the API (verify.mjs). Seeded ids
 * (`seedId(n)`) are ULIDs older than anything the server writes, so `trimSqlite`/`trimPostgres(…, lastId)` can
 * remove whatever an insert benchmark added after `lastId`.
 */

export { seedPostgres, trimPostgres } from './seed-postgres.mjs';
export { seedId, seedRows } from './seed-rows.mjs';
export { seedSqlite, trimSqlite } from './seed-sqlite.mjs';
