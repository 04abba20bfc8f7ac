/** Seeding for SQLite (see seed.mjs): rows added in one transaction through a second connection to the file. */
import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { seedRows } from './seed-rows.mjs';

/** Opens the server's database file beside the running server; WAL lets both use it. */
function open(file, { clusterId, collection }) {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  const row = db
    .prepare('SELECT id FROM collections WHERE cluster_id = ? AND name = ?')
    .get(clusterId, collection);
  if (row) return { db, collectionId: row.id };
  db.close();
  throw new Error(`seed: collection ${collection} does not exist yet (insert one document first)`);
}

/** Sets `doc_count`, which the list route answers as `total`, from the rows themselves. */
function recount(db, collectionId) {
  db.prepare(
    'UPDATE collections SET doc_count = (SELECT count(*) FROM documents WHERE collection_id = ?) WHERE id = ?',
  ).run(collectionId, collectionId);
}

/**
 * Folds the write-ahead log into the database file, so that the server does not read every page through a
 * WAL of a few hundred megabytes (which it would otherwise do until its next automatic checkpoint). A checkpoint
 * the server is running at that moment (its automatic one, after the last inserts of a run) makes this one fail
 * at once instead of waiting, so it is retried for a few seconds.
 */
async function checkpoint(db) {
  for (let attempt = 1; ; attempt++) {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)');
    if (!result.busy) return;
    if (attempt === 100) throw new Error('seed: the SQLite checkpoint stayed busy for 10 s');
    await sleep(100);
  }
}

/** Adds seeded documents to `collection` until it holds `total`; resolves with `{ added, bytes }` (file size). */
export async function seedSqlite(file, target) {
  const { db, collectionId } = open(file, target);
  try {
    const insert = db.prepare(
      'INSERT INTO documents (collection_id, id, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    const count = db.prepare('SELECT count(*) AS n FROM documents WHERE collection_id = ?');
    const missing = target.total - count.get(collectionId).n;
    db.transaction(() => {
      for (const row of seedRows(missing))
        insert.run(collectionId, row.id, row.data, row.createdAt, row.createdAt);
      recount(db, collectionId);
    }).immediate();
    await checkpoint(db);
    return { added: missing, bytes: statSync(file).size };
  } finally {
    db.close();
  }
}

/** Removes the documents written after `lastId` (by an insert benchmark) so the collection is back to its size. */
export async function trimSqlite(file, target, lastId) {
  const { db, collectionId } = open(file, target);
  try {
    db.transaction(() => {
      db.prepare('DELETE FROM documents WHERE collection_id = ? AND id > ?').run(collectionId, lastId);
      recount(db, collectionId);
    }).immediate();
    await checkpoint(db);
  } finally {
    db.close();
  }
}
