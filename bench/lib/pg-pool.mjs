/**
 * The PostgreSQL pool benchmark (issue 14, item 8): GET by id on the reference server on PostgreSQL with as many
 * requests in flight as its pool has connections, then with four times as many for a sustained while, once with
 * the installed driver (postgres with patches/postgres@3.4.9.patch) and once with the driver's queue as published
 * (servers/upstream-postgres-queue.mjs).
 *
 * With the published queue the cost of each query grows with the queries the pool has served since its busy
 * connections were last all idle, so the slowdown shows after some seconds of overload, not at once; and it stays
 * after the overload, so every measurement gets a fresh server over a fresh database. Single inserts are left
 * out: each waits for its commit to reach the disk, which decides their rate far more than the driver's queue does,
 * and on a shared machine their figures at four times the pool size moved with the other processes' load more
 * than with the driver.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from './child.mjs';
import { cpuTime, waitForQuiet, watchCpu } from './cpu.mjs';
import { measure } from './load.mjs';
import { median, number, percent, ratio } from './report.mjs';
import { requestOf } from './scale-target.mjs';
import { seedPostgres } from './seed.mjs';
import { verifySeeded } from './verify.mjs';

const REFERENCE = fileURLToPath(new URL('../servers/reference.mjs', import.meta.url));
const PUBLISHED_QUEUE = fileURLToPath(new URL('../servers/upstream-postgres-queue.mjs', import.meta.url));

/** The two drivers, in the order of the first round. */
export const DRIVERS = {
  patched: { label: 'patched (installed)', nodeOptions: [] },
  published: { label: 'as published', nodeOptions: ['--import', PUBLISHED_QUEUE] },
};

/**
 * A reference server on PostgreSQL over a new database, its `orders` seeded with `documents` documents; `driver`
 * names one of DRIVERS (the installed one by default).
 */
export async function startPostgresTarget({ pg, driver = 'patched', pool, documents, work, name }) {
  const databaseUrl = await pg.createDatabase(name);
  const server = await startChild(REFERENCE, ['-', mkdtempSync(join(work, `${name}-`))], {
    env: { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: String(pool) },
    nodeOptions: DRIVERS[driver].nodeOptions,
  });
  try {
    const { url, apiKey, clusterId, engine } = server.info;
    if (engine !== 'postgres') throw new Error(`pg-pool: the reference server runs on ${engine}`);
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    const created = await fetch(`${url}/api/v1/data/orders`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ status: 'first' }),
    });
    if (created.status !== 201)
      throw new Error(`pg-pool: creating the collection answered ${created.status}`);
    const { _id: lastId } = await created.json();
    await seedPostgres(databaseUrl, { clusterId, collection: 'orders', total: documents });
    await verifySeeded({ url, headers, size: documents, lastId });
    return { server, headers, size: documents, pids: () => [server.pid, ...pg.pids()] };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** One autocannon run of GET by id, with the others' CPU share and the server's and PostgreSQL's CPU per request. */
async function run(target, connections, seconds) {
  const serving = target.pids();
  const watch = watchCpu(serving);
  const before = cpuTime(serving);
  const result = await measure({ connections, duration: seconds, ...requestOf(target, 'get') });
  result.others = watch.stop();
  if (before !== null) result.cpuPerRequest = (cpuTime(serving) - before) / result.total;
  return result;
}

/** One measurement on one console line, with the CPU per request that a busy machine hardly changes. */
function format(r) {
  const cpu = r.cpuPerRequest === undefined ? '' : `  ${Math.round(r.cpuPerRequest)} µs CPU/request`;
  const failed = r.failed ? `  ${r.failed} FAILED` : '';
  return `${number(r.rps).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms${cpu}  (others ${percent(r.others)})${failed}`;
}

/**
 * One server's measurements: a warm-up and `duration` seconds at the pool size, then `sustain` seconds at four
 * times the pool size in windows of `duration` seconds; resolves with `{ base, first, last }` (the pool size, the
 * first and the last window at four times).
 */
async function measureServer(target, { pool, duration, warmup, sustain }, log) {
  await run(target, pool, warmup);
  const base = await run(target, pool, duration);
  log(`  ${String(pool).padStart(3)} in flight: ${format(base)}`);
  const windows = [];
  for (let at = 0; at < sustain; at += duration) {
    windows.push(await run(target, 4 * pool, duration));
    log(`  ${String(4 * pool).padStart(3)} in flight, ${at}–${at + duration} s: ${format(windows.at(-1))}`);
  }
  return { base, first: windows[0], last: windows.at(-1) };
}

/**
 * Runs every round; resolves with `{ settings, postgres, results }`, where `results[driver]` holds the rounds'
 * `{ base, first, last }` measurements.
 */
export async function runPoolBenchmark({ pg, work, log, ...settings }) {
  const { pool, documents, rounds } = settings;
  if (settings.sustain < settings.duration) throw new Error('pg-pool: --sustain must be at least --duration');
  const results = Object.fromEntries(Object.keys(DRIVERS).map((driver) => [driver, []]));
  for (let round = 1; round <= rounds; round++) {
    // Alternate the drivers, so that a burst of other work does not always hit the same one.
    const drivers = Object.keys(DRIVERS);
    if (round % 2 === 0) drivers.reverse();
    for (const driver of drivers) {
      const name = `pool_${round}_${driver}`;
      const target = await startPostgresTarget({ pg, driver, pool, documents, work, name });
      try {
        const others = await waitForQuiet(target.pids(), { patience: 10_000 });
        log(`round ${round}, ${DRIVERS[driver].label} (others used ${percent(others)})`);
        results[driver].push(await measureServer(target, settings, log));
      } finally {
        await target.server.stop();
      }
    }
  }
  return { settings, postgres: { version: pg.version }, results };
}

/** Median and range of one figure over the rounds. */
function spread(rounds, figure) {
  const values = rounds.map(figure).filter((value) => typeof value === 'number' && !Number.isNaN(value));
  return values.length
    ? { median: median(values), min: Math.min(...values), max: Math.max(...values) }
    : undefined;
}

/** The markdown section of the pool benchmark. */
export function renderPoolSection({ settings, postgres, results }, { command, date }) {
  const { pool, duration, sustain } = settings;
  const many = 4 * pool;
  const lastWindow = `${sustain - duration}–${sustain} s`;
  const cell = (figure) =>
    figure ? `${number(figure.median)} (${number(figure.min)}–${number(figure.max)})` : '–';
  const stayed = (rounds) => spread(rounds, (r) => r.last.rps / r.base.rps);
  const failedOf = (rounds) =>
    rounds.reduce((sum, r) => sum + r.base.failed + r.first.failed + r.last.failed, 0);
  const rows = Object.entries(DRIVERS).map(([driver, { label }]) => {
    const rounds = results[driver];
    const cpu = (window) => spread(rounds, (r) => r[window].cpuPerRequest)?.median;
    const cpuCell = cpu('base') === undefined ? '–' : `${number(cpu('base'))} → ${number(cpu('last'))}`;
    const others = spread(
      rounds.flatMap((r) => [r.base, r.first, r.last]),
      (r) => r.others,
    );
    const { median: value, min, max } = stayed(rounds);
    return `| ${label} | ${cell(spread(rounds, (r) => r.base.rps))} | ${cell(spread(rounds, (r) => r.first.rps))} | ${cell(spread(rounds, (r) => r.last.rps))} | ${ratio(value)} (${ratio(min)}–${ratio(max)}) | ${cpuCell} | ${failedOf(rounds)} | ${percent(others?.median)} |`;
  });
  const goal = stayed(results.patched).median;
  const met = goal >= 0.9 && failedOf(results.patched) === 0;
  const roundsText = `${settings.rounds} ${settings.rounds === 1 ? 'round' : 'rounds'}`;
  return `## PostgreSQL pool

Produced by \`${command}\` on ${date}.
GET by id (\`GET /api/v1/data/orders/{id}\`, a random one of ${number(settings.documents)} seeded orders, with the
development key) on the reference server from the build, on PostgreSQL ${postgres.version} (a throwaway cluster
with its default durability) with a pool of ${pool} connections (\`DATABASE_POOL_SIZE\`). autocannon keeps ${pool}
requests in flight (the pool size) for ${duration} s after ${settings.warmup} s of warm-up, then ${many} (four
times the pool size: the requests beyond ${pool} wait for a connection or are pipelined behind another query) for
${sustain} s, measured in windows of ${duration} s.

Two drivers, side by side in every round: **patched** is what the server runs, postgres 3.4.9 with
\`patches/postgres@3.4.9.patch\` (docs/deployment.md, "The postgres driver's patch"); **as published** is the same
server with the driver's \`src/queue.js\` as it is on npm, put back by \`bench/servers/upstream-postgres-queue.mjs\`
(module hooks loaded with \`node --import\`). With the published queue every query costs more the more queries the
pool served since its connections were last all idle, so throughput falls the longer the overload lasts and stays
low afterwards: hence the last window, and a fresh server over a fresh database for every driver and round.
${roundsText}, alternating which driver goes first. Figures are medians of the rounds with their range;
"stays" is the last window at ${many} in flight ÷ the pool size, per round. CPU per request is the server's and
PostgreSQL's CPU time (user and system) per answered request, which moves much less than the request rate when
other processes share the machine. Single inserts are not measured here: each waits for its commit to reach the
disk, which decides their rate far more than the driver's queue.

| driver | req/s, ${pool} in flight | req/s, ${many} in flight, 0–${duration} s | req/s, ${many} in flight, ${lastWindow} | stays | CPU per request (µs), ${pool} → ${many} (last) | failed | others' CPU |
|---|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

| goal | target | measured | verdict |
|---|---:|---:|---|
| GET by id, ${many} in flight (${lastWindow}) vs ${pool} (the pool size), patched driver | ≥ 0.9× | ${ratio(goal)} | **${met ? 'met' : 'not met'}** |
| the same with the driver as published (for comparison) | – | ${ratio(stayed(results.published).median)} | – |
`;
}
