/**
 * The metering benchmark (issue 17): GET by id on the reference server (SQLite) with the development key, once with
 * usage metering (every data request counted for its cluster and day, written in batches) and once with it switched
 * off (the programmatic `metering` option), side by side in one run.
 */
import { ms, number, percent, ratio } from './report.mjs';
import { runSideBySide } from './side-by-side.mjs';

const TARGETS = {
  metered: { env: {}, label: 'usage metering on' },
  unmetered: { env: { BENCH_AUTH: 'no-metering' }, label: 'usage metering off' },
};

/** Runs both servers side by side; resolves with `{ settings, results: { metered, unmetered } }`. */
export function runMeteringBenchmark(options) {
  return runSideBySide(TARGETS, { ...options, name: 'metering' });
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
