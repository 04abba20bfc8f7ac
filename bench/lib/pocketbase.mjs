/**
 * PocketBase as a benchmark target: built once from the Go module proxy into bench/.cache (ignored by git), then
 * set up as a user would set it up: a superuser made with `superuser upsert`, an `orders` collection with the
 * benchmark orders' fields (created through the API, with an index on `created` for the newest-first page), the
 * seeded orders written straight into its SQLite file (as the scale part does for the reference server), and every
 * request authenticated with the superuser's token.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { generateOrders, makeOrders } from './data.mjs';
import { buildServer } from './script.mjs';

export const POCKETBASE_VERSION = '0.36.8';
const MODULE = 'github.com/pocketbase/pocketbase/examples/base';
const CACHE = fileURLToPath(new URL(`../.cache/pocketbase-${POCKETBASE_VERSION}/`, import.meta.url));
const EMAIL = 'bench@example.com';
const PASSWORD = 'benchmark password';
/** Seeded orders were "created" one millisecond apart from here on, like the reference server's (seed-rows.mjs). */
const EPOCH = Date.UTC(2020, 0, 1);
const BODIES = makeOrders(100).map((fields) => JSON.stringify(fields));
/** The list page measured: 50 newest first with the total, pages 1 to 3 (the reference server's skip 0–100). */
export const POCKETBASE_LIST_PATH = '/api/collections/orders/records?perPage=50&sort=-created';

/**
 * The path of the PocketBase binary, built with `go install` on the first call (a minute or two) and reused after;
 * throws with the build's own message when Go is missing or the build fails.
 */
export function pocketbaseBinary() {
  const binary = join(CACHE, 'base');
  if (existsSync(binary)) return binary;
  mkdirSync(CACHE, { recursive: true });
  // CGO off: PocketBase's SQLite is the pure-Go modernc.org/sqlite, so no C toolchain is needed.
  const built = spawnSync('go', ['install', `${MODULE}@v${POCKETBASE_VERSION}`], {
    env: { ...process.env, GOBIN: CACHE, CGO_ENABLED: '0' },
    encoding: 'utf8',
  });
  if (built.error) throw new Error(`PocketBase: go install could not run (${built.error.message})`);
  if (built.status !== 0 || !existsSync(binary))
    throw new Error(`PocketBase: go install ${MODULE}@v${POCKETBASE_VERSION} failed:\n${built.stderr}`);
  return binary;
}

/**
 * What a script that measures the reference server beside PocketBase does first: builds this checkout's reference
 * server (unless `skipBuild`) and PocketBase (once), and makes a work directory, removed when the process exits.
 * Returns `{ binary, work }`.
 */
export function setUpBesidePocketBase(root, { skipBuild, name }) {
  if (!skipBuild) buildServer(root);
  console.log('PocketBase: building it once from the Go module proxy unless bench/.cache holds it');
  const binary = pocketbaseBinary();
  const work = mkdtempSync(join(tmpdir(), `dataplatform-bench-${name}-`));
  process.on('exit', () => rmSync(work, { recursive: true, force: true }));
  return { binary, work };
}

/** The id of the n-th seeded order in PocketBase: 15 characters of [a-z0-9], as its default id pattern wants. */
export function pocketbaseId(n) {
  return `o${String(n).padStart(14, '0')}`;
}

/** PocketBase's autodate text, e.g. `2020-01-01 00:00:00.001Z`. */
const autodate = (ms) => new Date(ms).toISOString().replace('T', ' ');

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/** Polls `url` until it answers 200 or `child` exits; resolves with the milliseconds since `started`. */
export async function firstAnswer(child, url, started, timeout = 30_000) {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${url}: the server exited (${child.exitCode ?? child.signalCode}) before answering`);
    try {
      const answer = await fetch(url);
      await answer.arrayBuffer();
      if (answer.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    if (performance.now() - started > timeout) throw new Error(`${url} did not answer 200 in ${timeout} ms`);
    await sleep(2);
  }
}

/**
 * Starts `pocketbase serve` over `dir` (made with a superuser first when new); resolves with
 * `{ url, pid, startMs, stop() }`, `startMs` being spawn to the first 200 on /api/health.
 */
export async function startPocketBase(binary, dir) {
  if (!existsSync(join(dir, 'data.db'))) {
    const made = spawnSync(binary, ['superuser', 'upsert', EMAIL, PASSWORD, '--dir', dir], {
      encoding: 'utf8',
    });
    if (made.status !== 0)
      throw new Error(`PocketBase: superuser upsert failed: ${made.stderr || made.stdout}`);
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(binary, ['serve', '--http', `127.0.0.1:${port}`, '--dir', dir], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = once(child, 'exit');
  const killAtExit = () => child.kill('SIGKILL');
  process.on('exit', killAtExit);
  exited.then(() => process.off('exit', killAtExit));
  try {
    const startMs = await firstAnswer(child, `${url}/api/health`, started);
    return {
      url,
      pid: child.pid,
      startMs,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

async function call(url, path, { token, method = 'GET', body } = {}) {
  const headers = { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) };
  const answer = await fetch(url + path, { method, headers, body: body && JSON.stringify(body) });
  const json = await answer.json();
  if (answer.status !== 200)
    throw new Error(`PocketBase: ${method} ${path} answered ${answer.status}: ${JSON.stringify(json)}`);
  return json;
}

/** The `orders` collection: the benchmark orders' fields, `created`/`updated` autodates, an index for the list. */
const ORDERS = {
  name: 'orders',
  type: 'base',
  fields: [
    { name: 'customer', type: 'json' },
    { name: 'total', type: 'number' },
    { name: 'currency', type: 'text' },
    { name: 'items', type: 'json' },
    { name: 'status', type: 'text' },
    { name: 'created', type: 'autodate', onCreate: true, onUpdate: false },
    { name: 'updated', type: 'autodate', onCreate: true, onUpdate: true },
  ],
  indexes: ['CREATE INDEX idx_orders_created ON orders (created)'],
};

/** Writes orders 1..`size` into PocketBase's `orders` table in one transaction, beside the running server. */
function seed(file, size) {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 10000');
    const insert = db.prepare(
      'INSERT INTO orders (id, customer, total, currency, items, status, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      let n = 0;
      for (const { customer, total, currency, items, status } of generateOrders(size)) {
        n++;
        const at = autodate(EPOCH + n);
        insert.run(
          pocketbaseId(n),
          JSON.stringify(customer),
          total,
          currency,
          JSON.stringify(items),
          status,
          at,
          at,
        );
      }
    }).immediate();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** Removes what an insert benchmark added (anything created after the seeded orders' year). */
function trim(file) {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 10000');
    db.prepare("DELETE FROM orders WHERE created >= '2021'").run();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/**
 * A PocketBase server over a fresh directory under `work` with `size` seeded orders, checked through its API;
 * resolves with `{ server, headers, size, trim(), seedSeconds }` (the shape of scale-target.mjs's `prepare`).
 * `fields` are more fields of the collection, beside the orders' (PocketBase drops what its schema lacks).
 */
export async function preparePocketBase(binary, size, { work, log, fields = [] }) {
  // pb_data inside a directory of its own, as a user's: PocketBase writes the migration of the new collection
  // into pb_migrations beside pb_data (automigrate, on by default), where another instance must not read it.
  const dir = join(mkdtempSync(join(work, `pocketbase-${size}-`)), 'pb_data');
  const pb = await startPocketBase(binary, dir);
  const { token } = await call(pb.url, '/api/collections/_superusers/auth-with-password', {
    method: 'POST',
    body: { identity: EMAIL, password: PASSWORD },
  });
  await call(pb.url, '/api/collections', {
    token,
    method: 'POST',
    body: { ...ORDERS, fields: [...ORDERS.fields, ...fields] },
  });
  const file = join(dir, 'data.db');
  const started = performance.now();
  seed(file, size);
  const seedSeconds = (performance.now() - started) / 1000;
  const page = await call(pb.url, `${POCKETBASE_LIST_PATH}&page=1`, { token });
  const newest = page.items.map((item) => item.id);
  if (page.totalItems !== size || newest[0] !== pocketbaseId(size) || newest[49] !== pocketbaseId(size - 49))
    throw new Error(
      `PocketBase: the seeded collection reads back as ${page.totalItems} orders, newest ${newest[0]}`,
    );
  const one = await call(pb.url, `/api/collections/orders/records/${pocketbaseId(1)}`, { token });
  if (typeof one.customer !== 'object' || typeof one.total !== 'number')
    throw new Error(`PocketBase: ${pocketbaseId(1)} reads back as ${JSON.stringify(one).slice(0, 80)}`);
  log(`  PocketBase ${size}: seeded ${size} orders in ${seedSeconds.toFixed(1)} s, total checked`);
  return {
    server: { info: { url: pb.url }, pid: pb.pid, stop: pb.stop },
    headers: { authorization: token, 'content-type': 'application/json' },
    size,
    trim: async () => trim(file),
    seedSeconds,
  };
}

/** The autocannon request of a scenario on a prepared PocketBase. */
export function pocketbaseRequestOf({ server, headers, size }, kind) {
  const { url } = server.info;
  const random = (count) => Math.floor(Math.random() * count);
  const records = '/api/collections/orders/records';
  if (kind === 'get')
    return {
      url,
      method: 'GET',
      headers,
      next: () => ({ path: `${records}/${pocketbaseId(1 + random(size))}` }),
    };
  if (kind === 'list')
    return {
      url,
      method: 'GET',
      headers,
      next: () => ({ path: `${POCKETBASE_LIST_PATH}&page=${1 + random(3)}` }),
    };
  let index = 0;
  return { url: url + records, method: 'POST', headers, next: () => ({ body: BODIES[index++ % 100] }) };
}
