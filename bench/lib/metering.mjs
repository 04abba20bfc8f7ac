/**
 * The metering benchmark (issue 17): GET by id on the reference server (SQLite) with the development key, once with
 * usage metering (every data request counted for its cluster and day, written in batches) and once with it switched
 * off (the programmatic `metering` option), side by side in one run.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChild } from './child.mjs';
import { waitForQuiet, watchCpu } from './cpu.mjs';
import { makeOrders, orderId } from './data.mjs';
import { measure } from './load.mjs';
import { combine, formatResult, ms, number, percent, ratio } from './report.mjs';

const TARGETS = {
  metered: { env: {}, label: 'usage metering on' },
  unmetered: { env: { BENCH_AUTH: 'no-metering' }, label: 'usage metering off' },
};

/** Runs both servers side by side; resolves with `{ settings, results: { metered, unmetered } }`. */
export async function runMeteringBenchmark({
  referenceScript,
  work,
  connections,
  duration,
  warmup,
  rounds,
  documents,
  log,
}) {
  const ordersFile = join(work, 'metering-orders.json');
  writeFileSync(
    ordersFile,
    JSON.stringify(makeOrders(documents).map((fields, i) => ({ _id: orderId(i + 1), ...fields }))),
  );
  const servers = {};
  for (const [name, { env }] of Object.entries(TARGETS)) {
    servers[name] = await startChild(
      referenceScript,
      [ordersFile, mkdtempSync(join(work, `metering-${name}-`))],
      {
        env: { DATABASE_URL: '', BENCH_AUTH: '', ...env },
      },
    );
  }
  try {
    const load = (name, seconds) => {
      const { url, apiKey } = servers[name].info;
      const id = () => orderId(1 + Math.floor(Math.random() * documents));
      return measure({
        url,
        method: 'GET',
        headers: { 'x-api-key': apiKey },
        next: () => ({ path: `/api/v1/data/orders/${id()}` }),
        connections,
        duration: seconds,
      });
    };
    for (const name of Object.keys(TARGETS)) await load(name, warmup);
    const pids = Object.values(servers).map((server) => server.pid);
    const samples = { metered: [], unmetered: [] };
    for (let round = 1; round <= rounds; round++) {
      log(`round ${round} (before it, others used ${percent(await waitForQuiet(pids))} of the CPU)`);
      // Alternate the order, so that a burst of other work does not always hit the same target.
      for (const name of round % 2 === 1 ? ['metered', 'unmetered'] : ['unmetered', 'metered']) {
        const watch = watchCpu(pids);
        const result = await load(name, duration);
        result.others = watch.stop();
        samples[name].push(result);
        log(`  ${TARGETS[name].label.padEnd(40)} ${formatResult(result)}`);
      }
    }
    return {
      settings: { connections, duration, warmup, rounds, documents },
      results: { metered: combine(samples.metered), unmetered: combine(samples.unmetered) },
    };
  } finally {
    for (const server of Object.values(servers)) await server.stop();
  }
}

/** The markdown section of the metering benchmark. */
export function renderMeteringSection({ settings, results }, { command, date }) {
  const { metered, unmetered } = results;
  const value = metered.rps / unmetered.rps;
  const met = value >= 0.95 && metered.failed === 0;
  const row = (name, r) =>
    `| ${TARGETS[name].label} | ${number(r.rps)} | ${number(r.min)}–${number(r.max)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.failed} | ${ratio(r.rps / unmetered.rps)} | ${percent(r.others)} |`;
  return `## Usage metering

Produced by \`${command}\` on ${date}. GET by id (\`GET /api/v1/data/orders/{id}\`, a random one of
${number(settings.documents)} seeded orders) with the development key on two reference servers from the build,
SQLite, side by side. One meters usage for billing: every answered data request is counted for its cluster and day
in memory and added to storage once a second; the other has metering switched off (the programmatic \`metering\`
option, which no environment variable reaches). autocannon, ${settings.connections} connections, ${settings.warmup} s
warm-up, then ${settings.rounds} rounds of ${settings.duration} s alternating the order; figures are medians of the
rounds.

| server | req/s (median) | range | p50 (ms) | p99 (ms) | failed | ÷ off | others' CPU |
|---|---:|---:|---:|---:|---:|---:|---:|
${row('metered', metered)}
${row('unmetered', unmetered)}

| goal | target | measured | verdict |
|---|---:|---:|---|
| GET by id with usage metering vs without | ≥ 0.95× | ${ratio(value)} | **${met ? 'met' : 'not met'}** |
`;
}
