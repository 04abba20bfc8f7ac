/** The reference server from its built package, seeded with the orders; prints `{ url, apiKey }` when ready. */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startServer } from '@dataplatform/server';

const [ordersFile, dataDir] = process.argv.slice(2);
const orders = JSON.parse(readFileSync(ordersFile, 'utf8'));

// The embedded SQLite default is measured even where DATABASE_URL or REDIS_URL is set; DATAPLATFORM_SQLITE_SYNCHRONOUS
// is still read from the environment: FULL (the default) or NORMAL.
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  logLevel: 'warn',
  databaseUrl: undefined,
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
console.log(JSON.stringify({ url: server.url.replace('localhost', '127.0.0.1'), apiKey: dev.apiKey }));
