/**
 * One reference server of the scale part over its own fresh database, with its `orders` collection seeded to a
 * given size, and the requests that measure it.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from './child.mjs';
import { makeOrders } from './data.mjs';
import { seedId, seedPostgres, seedSqlite, trimPostgres, trimSqlite } from './seed.mjs';
import { verifySeeded } from './verify.mjs';

const REFERENCE = fileURLToPath(new URL('../servers/reference.mjs', import.meta.url));
/** The list page measured; `skip` is added per request, drawn from 0..MAX_SKIP. */
export const LIST_PATH = '/api/v1/data/orders?limit=50&sort=-_createdAt';
/** The largest `skip` of a list request. */
export const MAX_SKIP = 100;
const BODIES = makeOrders(100).map((fields) => JSON.stringify(fields));

/**
 * Starts the reference server for one engine and size, creates `orders` with one HTTP insert, seeds it, checks it.
 * `script` is the server script to start (another checkout's, to measure an earlier commit); this one's by default.
 * `env` adds to the server's environment (settings such as DATAPLATFORM_MAX_STREAMS).
 */
export async function prepare(
  engine,
  size,
  { work, pg, log, script = REFERENCE, env = {}, nodeOptions = [] },
) {
  const dataDir = mkdtempSync(join(work, `scale-${engine}-${size}-`));
  const databaseUrl = engine === 'postgres' ? await pg.createDatabase(`bench_${size}`) : '';
  const server = await startChild(script, ['-', dataDir], {
    env: { ...env, DATABASE_URL: databaseUrl },
    nodeOptions,
  });
  const { url, apiKey, clusterId } = server.info;
  if (server.info.engine !== engine) throw new Error(`scale: asked for ${engine}, got ${server.info.engine}`);
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const created = await fetch(`${url}/api/v1/data/orders`, { method: 'POST', headers, body: BODIES[0] });
  if (created.status !== 201) throw new Error(`scale: creating the collection answered ${created.status}`);
  const { _id: lastId } = await created.json();
  const target = { clusterId, collection: 'orders', total: size };
  const file = join(dataDir, 'dataplatform.sqlite');
  const started = performance.now();
  const seeded =
    engine === 'sqlite' ? await seedSqlite(file, target) : await seedPostgres(databaseUrl, target);
  const seedSeconds = (performance.now() - started) / 1000;
  await verifySeeded({ url, headers, size, lastId });
  log(`  ${engine} ${size}: seeded ${seeded.added} documents in ${seedSeconds.toFixed(1)} s, total checked`);
  // Inserts are measured on the same collection; removing them afterwards keeps every read at `size` documents.
  const trim = () =>
    engine === 'sqlite' ? trimSqlite(file, target, lastId) : trimPostgres(databaseUrl, target, lastId);
  return { server, headers, size, trim, seedSeconds, bytes: seeded.bytes, dataDir, databaseUrl };
}

/** The autocannon request of a scenario on one prepared server. */
export function requestOf({ server, headers, size }, kind) {
  const { url } = server.info;
  const random = (count) => Math.floor(Math.random() * count);
  if (kind === 'get')
    return {
      url,
      method: 'GET',
      headers,
      next: () => ({ path: `/api/v1/data/orders/${seedId(1 + random(size - 1))}` }),
    };
  if (kind === 'list')
    return {
      url,
      method: 'GET',
      headers,
      next: () => ({ path: `${LIST_PATH}&skip=${random(MAX_SKIP + 1)}` }),
    };
  let index = 0;
  return {
    url: `${url}/api/v1/data/orders`,
    method: 'POST',
    headers,
    next: () => ({ body: BODIES[index++ % 100] }),
  };
}
