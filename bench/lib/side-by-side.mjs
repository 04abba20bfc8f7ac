/**
 * Two reference servers (SQLite, the development key) that differ in one setting, loaded with GET by id side by
 * side in one run: both seeded with the same orders, warmed up, then measured in rounds that alternate which goes
 * first. What the authentication, metering, cluster-checks and observability benchmarks share: each is a
 * description (`SideBySideBenchmark`) of its two targets, its section's words and its goal.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChild } from './child.mjs';
import { waitForQuiet, watchCpu } from './cpu.mjs';
import { makeOrders, orderId } from './data.mjs';
import { measure } from './load.mjs';
import { combine, formatResult, ms, number, percent, ratio } from './report.mjs';

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

/**
 * @typedef {object} SideBySideBenchmark
 * @property {string} name the script's name (`pnpm bench:<name>`) and its work files' prefix
 * @property {string} heading the section's heading in docs/benchmarks.md
 * @property {Record<string, { env: Record<string, string>, label: string }>} targets the setting measured first,
 *   then the reference point
 * @property {string} setting what the two servers differ in, as a paragraph's middle (markdown)
 * @property {{ label: string, ratio: number }} goal the least share of the reference point's throughput
 */

/** The markdown section of a side-by-side benchmark: both targets' figures and the goal's verdict. */
export function renderSideBySideSection(benchmark, { settings, results }, { command, date }) {
  const [measured, reference] = Object.keys(benchmark.targets).map((name) => results[name]);
  const value = measured.rps / reference.rps;
  const met = value >= benchmark.goal.ratio && measured.failed === 0;
  const rows = Object.entries(benchmark.targets).map(([name, { label }]) => {
    const r = results[name];
    return `| ${label} | ${number(r.rps)} | ${number(r.min)}–${number(r.max)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.failed} | ${ratio(r.rps / reference.rps)} | ${percent(r.others)} |`;
  });
  const busy =
    typeof measured.others === 'number' && measured.others > 0.25
      ? `\nOther processes used about ${percent(measured.others)} of the CPU during these rounds. Both servers then wait for the CPU
alike, which narrows the gap between them: on a quiet machine the ratio can be lower.\n`
      : '';
  return `## ${benchmark.heading}

Produced by \`${command}\` on ${date}. GET by id (\`GET /api/v1/data/orders/{id}\`, a random one of
${number(settings.documents)} seeded orders) on two reference servers from the build, SQLite, side by side.
${benchmark.setting.trim()} autocannon, ${settings.connections} connections, ${settings.warmup} s warm-up, then
${settings.rounds} rounds of ${settings.duration} s alternating the order; figures are medians of the rounds.
${busy}
| server | req/s (median) | range | p50 (ms) | p99 (ms) | failed | ÷ off | others' CPU |
|---|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

| goal | target | measured | verdict |
|---|---:|---:|---|
| ${benchmark.goal.label} | ≥ ${benchmark.goal.ratio}× | ${ratio(value)} | **${met ? 'met' : 'not met'}** |
`;
}
