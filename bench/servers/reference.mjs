/**
 * The reference server from its built package, seeded with the orders (none when the file is `-`); prints
 * `{ url, apiKey, clusterId, engine }` when ready.
 * BENCH_AUTH picks how requests are checked (the key-authentication part of the benchmark):
 * - unset: the development key (enterprise tier: authenticated, never rate limited);
 * - `limited`: a key of a free-tier account whose limit is raised out of reach, so that every request is
 *   authenticated, counted by the rate limiter and written to the key's usage history, yet never refused;
 * - `off`: authentication and rate limiting switched off through the server's programmatic option;
 * - `no-cluster-checks`: the development key, with the cluster-status and role checks switched off (the
 *   cluster-checks part of the benchmark, `pnpm bench:clusters`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createAccountWithKey, startServer } from '@dataplatform/server';

const [ordersFile, dataDir] = process.argv.slice(2);
const orders = ordersFile === '-' ? [] : JSON.parse(readFileSync(ordersFile, 'utf8'));

// Settings come from the environment the benchmark gives this process: DATABASE_URL names a fresh PostgreSQL
// database, or is empty for the embedded SQLite default (the caller's own DATABASE_URL never leaks in), and
// DATAPLATFORM_SQLITE_SYNCHRONOUS is FULL (the default) or NORMAL. Rate limits stay in memory: one instance.
const mode = process.env.BENCH_AUTH || 'dev';
const OPEN_CLUSTER = 'cls_benchmark_open';
const OUT_OF_REACH = 1_000_000_000;
const options = {
  dev: {},
  limited: { rateLimits: { free: OUT_OF_REACH, starter: OUT_OF_REACH, pro: OUT_OF_REACH, enterprise: null } },
  off: { unauthenticatedCluster: OPEN_CLUSTER },
  'no-cluster-checks': { clusterChecks: false },
  'no-metering': { metering: false },
  'no-observability': { observability: false },
}[mode];
if (!options)
  throw new Error(
    `reference server: BENCH_AUTH must be unset, "limited", "off", "no-cluster-checks", "no-metering" or "no-observability", not "${mode}"`,
  );
const server = await startServer(
  { port: 0, host: '127.0.0.1', dataDir, logLevel: 'warn', redisUrl: undefined },
  options,
);
const dev = server.devAccount;
if (!dev)
  throw new Error(`reference server: ${dataDir} must be empty so that the development account is made`);
let caller = { apiKey: dev.apiKey, clusterId: dev.clusterId };
if (mode === 'limited') {
  const free = await createAccountWithKey(server.storage, {
    email: 'bench-free@example.com',
    name: 'Bench',
    password: 'benchmark password',
    plan: 'free',
  });
  caller = { apiKey: free.apiKey, clusterId: free.clusterId };
} else if (mode === 'off') {
  caller = { apiKey: dev.apiKey, clusterId: OPEN_CLUSTER };
}

// Seeding through the storage is the same write path as POST without HTTP, and takes seconds rather than a minute.
const ref = { clusterId: caller.clusterId, collection: 'orders' };
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

// With BENCH_MEMORY_TRACE set, the process's memory by part goes to stderr every second (what grows under load).
if (process.env.BENCH_MEMORY_TRACE) {
  const { getHeapSpaceStatistics } = await import('node:v8');
  const mib = (bytes) => (bytes / 1048576).toFixed(1);
  setInterval(() => {
    const usage = process.memoryUsage();
    const spaces = getHeapSpaceStatistics()
      .map((space) => `${space.space_name.replace('_space', '')}=${mib(space.space_size)}`)
      .join(' ');
    const anon = /RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    console.error(
      `memory: anon ${mib(anon * 1024)} heap ${mib(usage.heapTotal)}/${mib(usage.heapUsed)} external ${mib(usage.external)} buffers ${mib(usage.arrayBuffers)} | ${spaces}`,
    );
  }, 1000).unref();
}

// With BENCH_STALL_TRACE set, every second the event loop's longest delay and the garbage collector's pauses of
// 10 ms or more go to stderr (where a latency's tail comes from).
if (process.env.BENCH_STALL_TRACE) {
  const { monitorEventLoopDelay, PerformanceObserver } = await import('node:perf_hooks');
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const pauses = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.duration >= 10) pauses.push(entry.duration.toFixed(0));
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    console.error(
      `stall: loop max ${(delay.max / 1e6).toFixed(0)} ms p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms | gc ≥10 ms: ${pauses.join(' ') || '-'}`,
    );
    delay.reset();
    pauses.length = 0;
  }, 1000).unref();
}

// With BENCH_HEAP_SAMPLES set, the allocations under load that outlived the young generation (promoted, whether a
// full collection freed them later or not) are sampled into that file: what makes the old generation grow.
const heapFile = process.env.BENCH_HEAP_SAMPLES;
const heapProfiler = heapFile ? new Session() : undefined;
if (heapProfiler) {
  heapProfiler.connect();
  await heapProfiler.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
  });
}

process.on('SIGTERM', async () => {
  if (profiler) writeFileSync(profileFile, JSON.stringify((await profiler.post('Profiler.stop')).profile));
  if (heapProfiler)
    writeFileSync(heapFile, JSON.stringify((await heapProfiler.post('HeapProfiler.stopSampling')).profile));
  await server.close();
  process.exit(0);
});
const url = server.url.replace('localhost', '127.0.0.1');
console.log(
  JSON.stringify({ url, apiKey: caller.apiKey, clusterId: caller.clusterId, engine: server.storage.engine }),
);
