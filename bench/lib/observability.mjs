/**
 * The observability benchmark (issue 21): GET by id on the reference server (SQLite) with the development key, once
 * with the request log and the request metrics (every answer logged in batches, counted into HDR histograms and
 * written every 10 s) and once with both switched off (the programmatic `observability` option), side by side.
 */
import { ms, number, percent, ratio } from './report.mjs';
import { runSideBySide } from './side-by-side.mjs';

const TARGETS = {
  observed: { env: {}, label: 'request log and metrics on' },
  unobserved: { env: { BENCH_AUTH: 'no-observability' }, label: 'request log and metrics off' },
};

/** Runs both servers side by side; resolves with `{ settings, results: { observed, unobserved } }`. */
export function runObservabilityBenchmark(options) {
  return runSideBySide(TARGETS, { ...options, name: 'observability' });
}

/** The markdown section of the observability benchmark. */
export function renderObservabilitySection({ settings, results }, { command, date }) {
  const { observed, unobserved } = results;
  const value = observed.rps / unobserved.rps;
  const met = value >= 0.9 && observed.failed === 0;
  const row = (name, r) =>
    `| ${TARGETS[name].label} | ${number(r.rps)} | ${number(r.min)}–${number(r.max)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.failed} | ${ratio(r.rps / unobserved.rps)} | ${percent(r.others)} |`;
  return `## Request logs and metrics

Produced by \`${command}\` on ${date}. GET by id (\`GET /api/v1/data/orders/{id}\`, a random one of
${number(settings.documents)} seeded orders) with the development key on two reference servers from the build,
SQLite, side by side. One keeps the request log (every answer buffered and written in batches of up to 1000 rows
every 200 ms) and the request metrics (every answer counted per cluster and key into an HDR histogram, added to the
minute, hour and day buckets every 10 s) and counts the Prometheus HTTP series; the other has all of it switched off
(the programmatic \`observability\` option, which no environment variable reaches). autocannon,
${settings.connections} connections, ${settings.warmup} s warm-up, then ${settings.rounds} rounds of
${settings.duration} s alternating the order; figures are medians of the rounds.

| server | req/s (median) | range | p50 (ms) | p99 (ms) | failed | ÷ off | others' CPU |
|---|---:|---:|---:|---:|---:|---:|---:|
${row('observed', observed)}
${row('unobserved', unobserved)}

| goal | target | measured | verdict |
|---|---:|---:|---|
| GET by id with request logs and metrics vs without | ≥ 0.9× | ${ratio(value)} | **${met ? 'met' : 'not met'}** |
`;
}
