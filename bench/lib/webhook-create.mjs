/**
 * The webhook-creation benchmark (issue 14, item 7): how long `POST /api/v1/data/webhooks` takes on each engine,
 * on a quiet server and while deliveries wait on slow DNS lookups of 20 other receivers' names. The server's
 * resolver asks only a DNS server in this process (DATAPLATFORM_WEBHOOK_DNS_SERVERS), so "slow" is exactly as
 * slow as the benchmark says, and every receiver is a server on 127.0.0.1 here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { startChild } from './child.mjs';
import { startDnsResponder } from './dns-responder.mjs';
import { median } from './report.mjs';

/** The value at quantile `q` (0–1) of sorted numbers. */
function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

async function startReceiver() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

async function post(pool, apiKey, path, body) {
  const response = await pool.request({
    method: 'POST',
    path,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode !== 201) throw new Error(`POST ${path} answered ${response.statusCode}: ${text}`);
}

/** Creates `count` subscriptions one after another, each to a new name; resolves with their latencies. */
async function measureCreates({ pool, apiKey, count, names, port, sample }) {
  const latencies = [];
  const samples = [];
  for (let i = 0; i < count; i++) {
    samples.push(sample());
    const started = performance.now();
    await post(pool, apiKey, '/api/v1/data/webhooks', {
      url: `http://${names(i)}:${port}/hook`,
      events: ['document.created'],
      collection: 'unwritten',
    });
    latencies.push(performance.now() - started);
    samples.push(sample());
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    creates: count,
    p50: median(latencies),
    p90: quantile(sorted, 0.9),
    max: sorted.at(-1),
    slowMin: Math.min(...samples),
    slowMax: Math.max(...samples),
  };
}

/**
 * Runs both situations on SQLite and, when `postgres` (a started bench PostgreSQL) is given, on PostgreSQL:
 * `creates` creates each, with `slowNames` receivers whose names take `delayMs` to resolve in the second.
 */
export async function runCreateBenchmark({
  referenceScript,
  postgres,
  creates = 50,
  slowNames = 20,
  delayMs = 800,
  writeEveryMs = 100,
  log = console.log,
}) {
  let slow = false;
  const dns = await startDnsResponder({ slow: (name) => slow && name.startsWith('slow-'), delayMs });
  const receiver = await startReceiver();
  const results = { creates, slowNames, delayMs, writeEveryMs, engines: {} };
  try {
    for (const engine of postgres ? ['sqlite', 'postgres'] : ['sqlite']) {
      const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-bench-create-'));
      const databaseUrl = engine === 'postgres' ? await postgres.createDatabase(`create_${Date.now()}`) : '';
      const server = await startChild(referenceScript, ['-', dataDir], {
        env: { DATABASE_URL: databaseUrl, DATAPLATFORM_WEBHOOK_DNS_SERVERS: dns.address },
      });
      const pool = new Pool(server.info.url, { connections: 4, pipelining: 1 });
      const { apiKey } = server.info;
      const run = (situation, sample) =>
        measureCreates({
          pool,
          apiKey,
          count: creates,
          port: receiver.port,
          names: (i) => `fresh-${situation}-${i}.bench.test`,
          sample,
        });
      try {
        slow = false;
        const quiet = await run('quiet', () => 0);
        log(`  ${engine.padEnd(8)} quiet:    p50 ${quiet.p50.toFixed(1)} ms, max ${quiet.max.toFixed(1)} ms`);

        // Receivers made while their names still answer at once; from then on each lookup takes `delayMs`, and
        // every write sends each of them a delivery.
        for (let i = 0; i < slowNames; i++)
          await post(pool, apiKey, '/api/v1/data/webhooks', {
            url: `http://slow-${i}.bench.test:${receiver.port}/hook`,
            events: ['document.created'],
            collection: 'busy',
          });
        slow = true;
        let writing = true;
        const writer = (async () => {
          for (let n = 0; writing; n++) {
            await post(pool, apiKey, '/api/v1/data/busy', { n });
            await sleep(writeEveryMs);
          }
        })();
        const deadline = performance.now() + 15_000;
        while (dns.waiting() < slowNames && performance.now() < deadline) await sleep(20);
        const busy = await run('busy', () => dns.waiting());
        writing = false;
        await writer;
        log(
          `  ${engine.padEnd(8)} slow DNS: p50 ${busy.p50.toFixed(1)} ms, max ${busy.max.toFixed(1)} ms ` +
            `(${busy.slowMin}–${busy.slowMax} slow questions unanswered)`,
        );
        results.engines[engine] = { quiet, busy };
      } finally {
        slow = false;
        await pool.close();
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await receiver.close();
    await dns.close();
  }
  return results;
}

const ms = (value) => value.toFixed(1);

/** The markdown section of the webhook-creation benchmark. */
export function renderCreateSection(results, { command, date }) {
  const rows = Object.entries(results.engines).flatMap(([engine, { quiet, busy }]) => [
    `| ${engine} | quiet | ${quiet.creates} | ${ms(quiet.p50)} | ${ms(quiet.p90)} | ${ms(quiet.max)} | — |`,
    `| ${engine} | deliveries waiting on slow DNS | ${busy.creates} | ${ms(busy.p50)} | ${ms(busy.p90)} | ${ms(busy.max)} | ${busy.slowMin}–${busy.slowMax} |`,
  ]);
  const goals = Object.entries(results.engines).flatMap(([engine, { quiet, busy }]) => [
    `| p50 on ${engine}, quiet | ≤ 50 ms | ${ms(quiet.p50)} ms | ${quiet.p50 <= 50 ? '**met**' : '**not met**'} |`,
    `| p90 on ${engine}, slow DNS | ≤ 100 ms | ${ms(busy.p90)} ms | ${busy.p90 <= 100 ? '**met**' : '**not met**'} |`,
  ]);
  return `## Webhook creation

Produced by \`${command}\` on ${date}. A fresh reference server per engine (development mode, which delivers to
loopback) resolves receivers' names through a DNS server in the benchmark process
(\`DATAPLATFORM_WEBHOOK_DNS_SERVERS\`): every name is 127.0.0.1 with a TTL of 0, so each create asks DNS again.
${results.creates} subscriptions are created one after another (\`POST /api/v1/data/webhooks\`, each to a new name
answered at once), first on a quiet server, then while ${results.slowNames} other subscriptions, whose names now take
${results.delayMs / 1000} s to resolve, get a delivery of each write made every ${results.writeEveryMs} ms, so that
their lookups are always in flight ("slow DNS questions unanswered": the A and AAAA questions the DNS server held
while the creates ran, least and most). Latency is from sending a create to its 201 (milliseconds).

Before issue 14 a create took about 560 ms on PostgreSQL (a fixed wait of the 500 ms presence lease plus a margin)
and 8 ms on SQLite, and seconds on both while deliveries waited on slow DNS: names were resolved by getaddrinfo on
libuv's 4 threads, which 4 slow lookups fill. Now names are resolved with c-ares, and a create on PostgreSQL waits
only for an instance that read "no subscription" within the last lease (not measured here: the first subscription
of a cluster that is being written to, at most about 550 ms).

| engine | situation | creates | p50 | p90 | max | slow DNS questions unanswered |
|---|---|---:|---:|---:|---:|---:|
${rows.join('\n')}

| goal | target | measured | verdict |
|---|---:|---:|---|
${goals.join('\n')}
`;
}
