/**
 * The cluster-checks benchmark (issue 16): GET by id on the reference server (SQLite) with the development key,
 * once with the checks every API-key request makes for its cluster (the cluster's status and the role its owner
 * holds there, read with the key's record) and once with them switched off (the programmatic `clusterChecks`
 * option), side by side in one run.
 */
import { ms, number, percent, ratio } from './report.mjs';
import { runSideBySide } from './side-by-side.mjs';

const TARGETS = {
  checked: { env: {}, label: 'cluster status and role checked' },
  unchecked: { env: { BENCH_AUTH: 'no-cluster-checks' }, label: 'cluster checks off' },
};

/** Runs both servers side by side; resolves with `{ settings, results: { checked, unchecked } }`. */
export function runClusterChecksBenchmark(options) {
  return runSideBySide(TARGETS, { ...options, name: 'clusters' });
}

/** The markdown section of the cluster-checks benchmark. */
export function renderClusterChecksSection({ settings, results }, { command, date }) {
  const { checked, unchecked } = results;
  const value = checked.rps / unchecked.rps;
  const met = value >= 0.95 && checked.failed === 0;
  const row = (name, r) =>
    `| ${TARGETS[name].label} | ${number(r.rps)} | ${number(r.min)}–${number(r.max)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.failed} | ${ratio(r.rps / unchecked.rps)} | ${percent(r.others)} |`;
  return `## Cluster checks

Produced by \`${command}\` on ${date}. GET by id (\`GET /api/v1/data/orders/{id}\`, a random one of
${number(settings.documents)} seeded orders) with the development key on two reference servers from the build,
SQLite, side by side. One makes the checks every API-key request makes for its cluster: the cluster is running, and
the key's owner is still a member whose role allows the route (both read with the key's record, which the
authentication cache keeps); the other has them switched off (the programmatic \`clusterChecks\` option, which no
environment variable reaches). autocannon, ${settings.connections} connections, ${settings.warmup} s warm-up, then
${settings.rounds} rounds of ${settings.duration} s alternating the order; figures are medians of the rounds.

| server | req/s (median) | range | p50 (ms) | p99 (ms) | failed | ÷ off | others' CPU |
|---|---:|---:|---:|---:|---:|---:|---:|
${row('checked', checked)}
${row('unchecked', unchecked)}

| goal | target | measured | verdict |
|---|---:|---:|---|
| GET by id with cluster status and role checks vs without | ≥ 0.95× | ${ratio(value)} | **${met ? 'met' : 'not met'}** |
`;
}
