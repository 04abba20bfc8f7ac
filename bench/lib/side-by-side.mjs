/**
 * Two reference servers (SQLite, the development key) that differ in one setting, loaded with GET by id side by
 * side in one run: both seeded with the same orders, warmed up, then measured in rounds that alternate which goes
 * first. What the metering and cluster-checks benchmarks share; each names its two targets and their environment.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChild } from './child.mjs';
import { waitForQuiet, watchCpu } from './cpu.mjs';
import { makeOrders, orderId } from './data.mjs';
import { measure } from './load.mjs';
import { combine, formatResult, percent } from './report.mjs';

/**
 * `targets`: two entries `{ env, label }` by name, the first the setting measured, the second the reference point.
 * Resolves with `{ settings, results }`, `results` holding the combined rounds of each target by name.
 */
export async function runSideBySide(
  targets,
  { name: benchmark, referenceScript, work, connections, duration, warmup, rounds, documents, log },
) {
  const names = Object.keys(targets);
  const ordersFile = join(work, `${benchmark}-orders.json`);
  writeFileSync(
    ordersFile,
    JSON.stringify(makeOrders(documents).map((fields, i) => ({ _id: orderId(i + 1), ...fields }))),
  );
  const servers = {};
  for (const name of names) {
    servers[name] = await startChild(
      referenceScript,
      [ordersFile, mkdtempSync(join(work, `${benchmark}-${name}-`))],
      { env: { DATABASE_URL: '', BENCH_AUTH: '', ...targets[name].env } },
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
    for (const name of names) await load(name, warmup);
    const pids = Object.values(servers).map((server) => server.pid);
    const samples = Object.fromEntries(names.map((name) => [name, []]));
    for (let round = 1; round <= rounds; round++) {
      log(`round ${round} (before it, others used ${percent(await waitForQuiet(pids))} of the CPU)`);
      // Alternate the order, so that a burst of other work does not always hit the same target.
      for (const name of round % 2 === 1 ? names : [...names].reverse()) {
        const watch = watchCpu(pids);
        const result = await load(name, duration);
        result.others = watch.stop();
        samples[name].push(result);
        log(`  ${targets[name].label.padEnd(40)} ${formatResult(result)}`);
      }
    }
    return {
      settings: { connections, duration, warmup, rounds, documents },
      results: Object.fromEntries(names.map((name) => [name, combine(samples[name])])),
    };
  } finally {
    for (const server of Object.values(servers)) await server.stop();
  }
}
