/**
 * The reference server from its built package, seeded with the orders (none when the file is `-`); prints
 * `{ url, apiKey, clusterId, engine }` when ready.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startServer } from '@dataplatform/server';

const [ordersFile, dataDir] = process.argv.slice(2);
const orders = ordersFile === '-' ? [] : JSON.parse(readFileSync(ordersFile, 'utf8'));

// Settings come from the environment the benchmark gives this process: DATABASE_URL names a fresh PostgreSQL
// database, or is empty for the embedded SQLite default (the caller's own DATABASE_URL never leaks in), and
// DATAPLATFORM_SQLITE_SYNCHRONOUS is FULL (the default) or NORMAL. Rate limits stay in memory: one instance.
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  logLevel: 'warn',
  redisUrl: undefined,
});
const dev = server.devAccount;
if (!dev)
  throw new Error(`reference server: ${dataDir} must be empty so that the development account is made`);

// Seeding through the storage is the same write path as POST without HTTP, and takes seconds rather than a minute.
const ref = { clusterId: dev.clusterId, collection: 'orders' };
const now = new Date().toISOString();
for (const { _id, ...fields } of orders) {
  const result = await server.storage.documents.insert(ref, {
    id: _id,
    data: JSON.stringify(fields),
    createdAt: now,
    updatedAt: now,
  });
  if (!result.ok) throw new Error(`reference server: seeding ${_id} failed (${result.reason})`);
}

// With BENCH_CPU_PROFILE set, only the time under load is profiled (seeding would drown it), into that file.
const profileFile = process.env.BENCH_CPU_PROFILE;
const profiler = profileFile ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}

process.on('SIGTERM', async () => {
  if (profiler) writeFileSync(profileFile, JSON.stringify((await profiler.post('Profiler.stop')).profile));
  await server.close();
  process.exit(0);
});
const url = server.url.replace('localhost', '127.0.0.1');
console.log(
  JSON.stringify({ url, apiKey: dev.apiKey, clusterId: dev.clusterId, engine: server.storage.engine }),
);
