/**
 * The key-authentication benchmark (issue 6): GET by id on the reference server (SQLite) with every request
 * authenticated by an API key, counted by the rate limiter and written to the key's usage history, against the
 * same server with authentication and rate limiting switched off (a programmatic option only).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChild } from './child.mjs';
import { waitForQuiet, watchCpu } from './cpu.mjs';
import { makeOrders, orderId } from './data.mjs';
import { measure } from './load.mjs';
import { combine, formatResult, ms, number, percent, ratio } from './report.mjs';

const TARGETS = {
  keyed: { env: { BENCH_AUTH: 'limited' }, label: 'API key, rate limit and usage history' },
  open: { env: { BENCH_AUTH: 'off' }, label: 'authentication and rate limiting off' },
};

/** Runs both servers side by side; resolves with `{ settings, results: { keyed, open } }` (combined rounds). */
export async function runAuthBenchmark({
  referenceScript,
  work,
  connections,
  duration,
  warmup,
  rounds,
  documents,
  log,
}) {
  const ordersFile = join(work, 'auth-orders.json');
  writeFileSync(
    ordersFile,
    JSON.stringify(makeOrders(documents).map((fields, i) => ({ _id: orderId(i + 1), ...fields }))),
  );
  const servers = {};
  for (const [name, { env }] of Object.entries(TARGETS)) {
    servers[name] = await startChild(
      referenceScript,
      [ordersFile, mkdtempSync(join(work, `auth-${name}-`))],
      {
        env: { DATABASE_URL: '', ...env },
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
    const samples = { keyed: [], open: [] };
    for (let round = 1; round <= rounds; round++) {
      log(`round ${round} (before it, others used ${percent(await waitForQuiet(pids))} of the CPU)`);
      // Alternate the order, so that a burst of other work does not always hit the same target.
      for (const name of round % 2 === 1 ? ['keyed', 'open'] : ['open', 'keyed']) {
        const watch = watchCpu(pids);
        const result = await load(name, duration);
        result.others = watch.stop();
        samples[name].push(result);
        log(`  ${TARGETS[name].label.padEnd(40)} ${formatResult(result)}`);
      }
    }
    return {
      settings: { connections, duration, warmup, rounds, documents },
      results: { keyed: combine(samples.keyed), open: combine(samples.open) },
    };
  } finally {
    for (const server of Object.values(servers)) await server.stop();
  }
}

/** The markdown section of the key-authentication benchmark. */
export function renderAuthSection({ settings, results }, { command, date }) {
  const { keyed, open } = results;
  const value = keyed.rps / open.rps;
  const met = value >= 0.9 && keyed.failed === 0;
  const row = (name, r) =>
    `| ${TARGETS[name].label} | ${number(r.rps)} | ${number(r.min)}–${number(r.max)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.failed} | ${ratio(r.rps / open.rps)} | ${percent(r.others)} |`;
  const busy =
    typeof keyed.others === 'number' && keyed.others > 0.25
      ? `\nOther processes used about ${percent(keyed.others)} of the CPU during these rounds. Both servers then wait for the CPU
alike, which narrows the gap between them: on a quiet machine the ratio can be lower.\n`
      : '';
  return `## Key authentication

Produced by \`${command}\` on ${date}. GET by id (\`GET /api/v1/data/orders/{id}\`, a random one of
${number(settings.documents)} seeded orders) on two reference servers from the build, SQLite, side by side. One
checks an API key on every request, counts it in the rate limiter of the key's tier (a free-tier account whose
limit the benchmark raises out of reach through the programmatic \`rateLimits\` option, so nothing is refused)
and writes it to the key's usage history; the other runs with authentication and rate limiting switched off (the
programmatic \`unauthenticatedCluster\` option, which no environment variable reaches). autocannon,
${settings.connections} connections, ${settings.warmup} s warm-up, then ${settings.rounds} rounds of
${settings.duration} s alternating the order; figures are medians of the rounds.
${busy}
| server | req/s (median) | range | p50 (ms) | p99 (ms) | failed | ÷ off | others' CPU |
|---|---:|---:|---:|---:|---:|---:|---:|
${row('keyed', keyed)}
${row('open', open)}

| goal | target | measured | verdict |
|---|---:|---:|---|
| GET by id with key auth and rate limiting vs both off | ≥ 0.9× | ${ratio(value)} | **${met ? 'met' : 'not met'}** |
`;
}
