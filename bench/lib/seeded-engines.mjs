/**
 * The storage-level benchmarks' common ground (bench:sql-group, bench:schema): a storage of each engine, opened
 * through the server's `openStorage` and seeded with `documents` orders, beside a plain connection to the same
 * database for the hand-written reference, one engine after the other (PostgreSQL when its server binaries are
 * here, on a throwaway cluster).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresBinaries, startPostgres } from './postgres.mjs';
import { seedPostgres, seedSqlite } from './seed.mjs';

/** Where the benchmarks put their orders. */
export const ORDERS = { clusterId: 'bench', collection: 'orders' };

/** Milliseconds one call of `run` takes. */
export async function time(run) {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * A storage whose `orders` holds `first` (the insert that makes the collection) and then `documents` seeded rows.
 * `openStorage` is the server's, from the build.
 */
async function seeded(openStorage, config, seed, { documents, first }) {
  const storage = await openStorage(config);
  const now = new Date().toISOString();
  await storage.documents.insert(ORDERS, {
    id: '0',
    data: JSON.stringify(first),
    createdAt: now,
    updatedAt: now,
  });
  await seed({ ...ORDERS, total: documents });
  return storage;
}

/**
 * Calls `measure(engine)` for SQLite and then PostgreSQL (unless `noPostgres` or its binaries are missing), where
 * `engine` is `{ name: 'sqlite'|'postgres', label, storage, collectionId, sqlite?, postgres? }`: `sqlite` a
 * better-sqlite3 handle on the same file, `postgres` a `postgres` client of the same database. Resolves with the
 * results in that order; everything is closed and removed after each engine.
 */
export async function onSeededEngines({ openStorage, documents, first, noPostgres }, measure) {
  const results = [];
  const work = mkdtempSync(join(tmpdir(), 'dataplatform-bench-engines-'));
  try {
    const file = join(work, 'dataplatform.sqlite');
    const storage = await seeded(
      openStorage,
      { dataDir: work, sqliteSynchronous: 'normal' },
      (target) => seedSqlite(file, target),
      { documents, first },
    );
    const { default: Database } = await import('better-sqlite3');
    const sqlite = new Database(file);
    try {
      const { id } = sqlite
        .prepare('SELECT id FROM collections WHERE cluster_id = ? AND name = ?')
        .get(ORDERS.clusterId, ORDERS.collection);
      results.push(await measure({ name: 'sqlite', label: 'SQLite', storage, collectionId: id, sqlite }));
    } finally {
      sqlite.close();
      await storage.close?.();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const bin = noPostgres ? null : postgresBinaries();
  if (!bin) {
    console.log('PostgreSQL: skipped, no PostgreSQL server binaries (install postgresql or set PG_BIN)');
    return results;
  }
  const pg = await startPostgres(bin);
  try {
    const url = pg.url('postgres');
    const storage = await seeded(
      openStorage,
      { databaseUrl: url, databasePoolSize: 2 },
      (target) => seedPostgres(url, target),
      { documents, first },
    );
    const { default: connect } = await import('postgres');
    const postgres = connect(url, { max: 1, onnotice: () => {} });
    try {
      const [{ id }] = await postgres`SELECT id FROM collections
        WHERE cluster_id = ${ORDERS.clusterId} AND name = ${ORDERS.collection}`;
      const label = `PostgreSQL ${pg.version}`;
      results.push(await measure({ name: 'postgres', label, storage, collectionId: id, postgres }));
    } finally {
      await postgres.end();
      await storage.close?.();
    }
  } finally {
    await pg.stop();
  }
  return results;
}
