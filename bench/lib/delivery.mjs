/**
 * The webhook delivery benchmark (issue 7): the time from an acknowledged write to the receipt of its event by
 * a receiver on loopback, with writes arriving at a steady rate, on each engine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { startChild } from './child.mjs';
import { processTree, waitForQuiet, watchCpu } from './cpu.mjs';
import { median, percent } from './report.mjs';

/** The value at quantile `q` (0–1) of sorted numbers. */
function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** A receiver in this process, so receipt and acknowledgement are read from one clock. */
async function startReceiver(onEvent) {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      response.writeHead(200).end();
      onEvent(JSON.parse(Buffer.concat(chunks).toString('utf8')), at);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}

/**
 * Sends `count` inserts at `rate` per second (open loop: each at its own scheduled time, whatever the answers
 * before it), and resolves with the latency of each one's delivery in milliseconds.
 */
async function measureRound({ pool, apiKey, rate, count, collection, receipts }) {
  const acked = new Map();
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const started = performance.now();
  const writes = [];
  for (let seq = 0; seq < count; seq++) {
    const due = started + (seq * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    writes.push(
      pool
        .request({
          method: 'POST',
          path: `/api/v1/data/${collection}`,
          headers,
          body: JSON.stringify({ seq }),
        })
        .then(async (response) => {
          await response.body.text();
          if (response.statusCode !== 201) throw new Error(`insert answered ${response.statusCode}`);
          acked.set(seq, performance.now());
        }),
    );
  }
  await Promise.all(writes);
  const deadline = performance.now() + 30_000;
  while (receipts.get(collection)?.size !== count && performance.now() < deadline) await sleep(20);
  const got = receipts.get(collection) ?? new Map();
  const latencies = [];
  let early = 0;
  for (const [seq, ackedAt] of acked) {
    const receivedAt = got.get(seq);
    if (receivedAt === undefined) continue;
    // The event can arrive before the write's answer has reached the client: that counts as no wait at all.
    if (receivedAt < ackedAt) early++;
    latencies.push(Math.max(0, receivedAt - ackedAt));
  }
  latencies.sort((a, b) => a - b);
  return {
    writes: count,
    delivered: latencies.length,
    early,
    p50: quantile(latencies, 0.5),
    p90: quantile(latencies, 0.9),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1),
    seconds: (performance.now() - started) / 1000,
  };
}

/** Runs the benchmark on SQLite and, when `postgres` (a started bench PostgreSQL) is given, on PostgreSQL. */
export async function runDeliveryBenchmark({
  referenceScript,
  postgres,
  rate = 200,
  seconds = 10,
  warmup = 2,
  rounds = 3,
  log = console.log,
}) {
  const results = { rate, seconds, warmup, rounds, engines: {} };
  const receipts = new Map();
  const receiver = await startReceiver((event, at) => {
    const byCollection = receipts.get(event.collection) ?? new Map();
    byCollection.set(event.data.seq, at);
    receipts.set(event.collection, byCollection);
  });
  try {
    for (const engine of postgres ? ['sqlite', 'postgres'] : ['sqlite']) {
      const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-bench-delivery-'));
      const databaseUrl =
        engine === 'postgres' ? await postgres.createDatabase(`delivery_${Date.now()}`) : '';
      const server = await startChild(referenceScript, ['-', dataDir], {
        env: { DATABASE_URL: databaseUrl },
      });
      const pool = new Pool(server.info.url, { connections: 32, pipelining: 1 });
      try {
        const { apiKey } = server.info;
        const created = await pool.request({
          method: 'POST',
          path: '/api/v1/data/webhooks',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ url: receiver.url, events: ['document.created'] }),
        });
        if (created.statusCode !== 201)
          throw new Error(`subscribing answered ${created.statusCode}: ${await created.body.text()}`);
        await created.body.text();
        await measureRound({
          pool,
          apiKey,
          rate,
          count: rate * warmup,
          collection: `warmup${engine}`,
          receipts,
        });
        const measured = [];
        for (let round = 0; round < rounds; round++) {
          // The CPU other processes take meanwhile: the figures mean little when it is large, so each round
          // waits (up to 30 s) for the machine to be mostly idle first.
          const ours = [...processTree(server.pid), ...(engine === 'postgres' ? postgres.pids() : [])];
          await waitForQuiet(ours);
          const cpu = watchCpu(ours);
          const result = await measureRound({
            pool,
            apiKey,
            rate,
            count: rate * seconds,
            collection: `round${round}${engine}`,
            receipts,
          });
          result.others = cpu.stop();
          measured.push(result);
          log(
            `  ${engine.padEnd(8)} round ${round + 1}: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ` +
              `${result.delivered}/${result.writes} delivered (others used ${percent(result.others)} of the CPU)`,
          );
        }
        results.engines[engine] = {
          rounds: measured,
          p50: median(measured.map((r) => r.p50)),
          p90: median(measured.map((r) => r.p90)),
          p99: median(measured.map((r) => r.p99)),
          max: Math.max(...measured.map((r) => r.max)),
          delivered: measured.reduce((sum, r) => sum + r.delivered, 0),
          writes: measured.reduce((sum, r) => sum + r.writes, 0),
          early: measured.reduce((sum, r) => sum + r.early, 0),
          others: measured.every((r) => typeof r.others === 'number')
            ? median(measured.map((r) => r.others))
            : undefined,
          p99s: measured.map((r) => r.p99),
        };
      } finally {
        await pool.close();
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await receiver.close();
  }
  return results;
}

const ms = (value) => value.toFixed(1);

/** The markdown section of the delivery benchmark. */
export function renderDeliverySection(results, { command, date }) {
  const rows = Object.entries(results.engines).map(
    ([engine, r]) =>
      `| ${engine} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${r.p99s.map(ms).join(', ')} | ${ms(r.max)} | ${r.delivered} / ${r.writes} | ${r.early} | ${percent(r.others)} |`,
  );
  const goals = Object.entries(results.engines).flatMap(([engine, r]) => {
    const complete = r.delivered === r.writes;
    const verdict = (met) =>
      met && complete ? '**met**' : complete ? '**not met**' : '**not met** (events missing)';
    return [
      `| p50 on ${engine} | ≤ 10 ms | ${ms(r.p50)} ms | ${verdict(r.p50 <= 10)} |`,
      `| p99 on ${engine} | ≤ 50 ms | ${ms(r.p99)} ms | ${verdict(r.p99 <= 50)} |`,
    ];
  });
  return `## Webhook delivery

Produced by \`${command}\` on ${date}. A fresh reference server per engine (development mode, which delivers to
loopback) has one subscription to \`document.created\`; a receiver on 127.0.0.1 in the benchmark process answers
200 at once. Inserts (\`POST /api/v1/data/{collection}\`) are sent at ${results.rate} per second on a fixed schedule,
whatever the answers before them, for ${results.warmup} s of warm-up and then ${results.rounds} rounds of ${results.seconds} s, each
after waiting (up to 30 s) for other processes to leave the machine mostly idle.
The latency of a write is the time from its 201 answer reaching the client to its event reaching the receiver,
both read from the benchmark process's clock; an event that arrives before the answer counts as 0 ("early").
Figures are the median of the rounds' percentiles (milliseconds), "p99 by round" each round's own, "max" the
largest of all rounds; "others' CPU" is the share of the machine's CPU that processes other than the benchmark,
the server and its PostgreSQL used meanwhile (median of the rounds, from /proc). The server, the receiver and
the load share the machine's cores, so a busy machine shows as long tails.

| engine | p50 | p90 | p99 | p99 by round | max | delivered | early | others' CPU |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

| goal | target | measured | verdict |
|---|---:|---:|---|
${goals.join('\n')}
`;
}
