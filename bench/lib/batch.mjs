/**
 * The batch benchmark (issue 4): a transactional batch of 1000 inserts against the same documents sent as single
 * inserts, on each engine, and raw better-sqlite3 inserting the same rows 1000 to a transaction (the ceiling).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'undici';
import { startChild } from './child.mjs';
import { makeOrders } from './data.mjs';

const BATCH_SIZE = 1000;

/** Sends `jobs` (functions returning a promise) with `concurrency` in flight; resolves with the elapsed seconds. */
async function drive(jobs, concurrency) {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]();
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (performance.now() - started) / 1000;
}

async function expectStatus(response, status, what) {
  const text = await response.body.text();
  if (response.statusCode !== status)
    throw new Error(`${what}: ${response.statusCode} ${text.slice(0, 200)}`);
}

/** Batches and single inserts of `documents` orders through one reference server; documents per second. */
async function measureServer({ url, apiKey }, documents, { batchConcurrency, singleConcurrency }) {
  const pool = new Pool(url, { connections: Math.max(batchConcurrency, singleConcurrency), pipelining: 1 });
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const post = (path, body) => pool.request({ method: 'POST', path, headers, body });
  const batches = [];
  for (let start = 0; start < documents.length; start += BATCH_SIZE) {
    const operations = documents
      .slice(start, start + BATCH_SIZE)
      .map((data) => ({ op: 'insert', collection: 'batched', data }));
    batches.push(JSON.stringify({ operations, transaction: true }));
  }
  // Warm-up: one batch and a few hundred single inserts into a collection the measurement does not use.
  await expectStatus(
    await post('/api/v1/data/batch', batches[0].replaceAll('"batched"', '"warmup"')),
    200,
    'warm-up batch',
  );
  await drive(
    documents
      .slice(0, 300)
      .map(
        (doc) => async () =>
          expectStatus(await post('/api/v1/data/warmup', JSON.stringify(doc)), 201, 'warm-up'),
      ),
    singleConcurrency,
  );
  const batchSeconds = await drive(
    batches.map((body) => async () => expectStatus(await post('/api/v1/data/batch', body), 200, 'batch')),
    batchConcurrency,
  );
  const singleSeconds = await drive(
    documents.map(
      (doc) => async () =>
        expectStatus(await post('/api/v1/data/single', JSON.stringify(doc)), 201, 'insert'),
    ),
    singleConcurrency,
  );
  await pool.close();
  return { batch: documents.length / batchSeconds, single: documents.length / singleSeconds };
}

/** better-sqlite3 alone: the same rows into the server's table layout, 1000 to a transaction, WAL and FULL sync. */
function measureRawSqlite(documents) {
  const dir = mkdtempSync(join(tmpdir(), 'dataplatform-bench-raw-'));
  const db = new Database(join(dir, 'raw.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE documents (collection_id INTEGER NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL,
             created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
           CREATE UNIQUE INDEX documents_by_id ON documents (collection_id, id);
           CREATE INDEX documents_by_created ON documents (collection_id, created_at, id);
           CREATE INDEX documents_by_updated ON documents (collection_id, updated_at, id);`);
  const insert = db.prepare('INSERT INTO documents VALUES (1, ?, ?, ?, ?)');
  const store = db.transaction((rows) => {
    for (const row of rows) insert.run(row.id, row.data, row.at, row.at);
  });
  const started = performance.now();
  for (let start = 0; start < documents.length; start += BATCH_SIZE) {
    // The same work per row the server does besides SQL: an id, a timestamp and the JSON text.
    const at = new Date().toISOString();
    const rows = documents.slice(start, start + BATCH_SIZE).map((doc, i) => ({
      id: `${at}-${String(start + i).padStart(8, '0')}`,
      data: JSON.stringify(doc),
      at,
    }));
    store(rows);
  }
  const seconds = (performance.now() - started) / 1000;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return documents.length / seconds;
}

/**
 * Runs the batch benchmark on SQLite and, when `postgres` (a started bench PostgreSQL) is given, on PostgreSQL.
 * Each engine gets a fresh reference server (synchronous=FULL on SQLite, default durability on PostgreSQL).
 */
export async function runBatchBenchmark({
  referenceScript,
  documents: count = 40_000,
  postgres,
  log = console.log,
}) {
  const documents = makeOrders(count, 7);
  const results = { documents: count, engines: {} };
  for (const engine of postgres ? ['sqlite', 'postgres'] : ['sqlite']) {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-bench-batch-'));
    const databaseUrl = engine === 'postgres' ? await postgres.createDatabase(`batch_${Date.now()}`) : '';
    const server = await startChild(referenceScript, ['-', dataDir], { env: { DATABASE_URL: databaseUrl } });
    try {
      const measured = await measureServer(server.info, documents, {
        batchConcurrency: 2,
        singleConcurrency: 50,
      });
      results.engines[engine] = measured;
      log(
        `  ${engine.padEnd(8)} batch ${Math.round(measured.batch)} docs/s, single inserts ${Math.round(measured.single)} docs/s`,
      );
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  results.rawSqlite = measureRawSqlite(documents);
  log(`  raw better-sqlite3 ${Math.round(results.rawSqlite)} rows/s`);
  return results;
}

const perSecond = (value) => Math.round(value).toLocaleString('en-US');

/** The markdown section of the batch benchmark. */
export function renderBatchSection(results, { command, date }) {
  const sqlite = results.engines.sqlite;
  const batchGoal = sqlite.batch >= 50_000;
  const rawRatio = sqlite.batch / results.rawSqlite;
  const rows = Object.entries(results.engines).map(
    ([engine, r]) =>
      `| ${engine} | ${perSecond(r.batch)} | ${perSecond(r.single)} | ${(r.batch / r.single).toFixed(1)}× |`,
  );
  return `## Batch inserts

Produced by \`${command}\` on ${date}. ${perSecond(results.documents)} orders (about 300 bytes each) are written
twice through a fresh reference server per engine: as transactional batches of 1000 inserts
(\`POST /api/v1/data/batch\`, \`transaction: true\`, 2 requests in flight) and as single inserts
(\`POST /api/v1/data/{collection}\`, 50 in flight). Figures are documents per second, end to end: HTTP, validation,
ids and timestamps, and a committed transaction. SQLite runs with \`synchronous=FULL\`, PostgreSQL with its default
durability. The ceiling is better-sqlite3 alone inserting the same rows, 1000 to a transaction, into the same table
layout and indexes, with the same pragmas.

| engine | batch (docs/s) | single inserts (docs/s) | batch ÷ single |
|---|---:|---:|---:|
${rows.join('\n')}

| goal | target | measured | verdict |
|---|---:|---:|---|
| batched inserts on SQLite, end to end | ≥ 50,000 docs/s | ${perSecond(sqlite.batch)} | **${batchGoal ? 'met' : 'not met'}** |
| batched inserts on SQLite vs better-sqlite3 alone (${perSecond(results.rawSqlite)} rows/s) | ≥ 0.5× | ${rawRatio.toFixed(2)}× | **${rawRatio >= 0.5 ? 'met' : 'not met'}** |
`;
}
