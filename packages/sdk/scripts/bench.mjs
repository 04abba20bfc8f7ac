#!/usr/bin/env node
// Throughput of the SDK's default Node transport against raw `undici.request`, both talking to one local
// node:http server in a child process. Needs `pnpm build` first. Not a test: timings vary with the machine.
// Usage: node scripts/bench.mjs [requests=20000] [concurrency=32] [rounds=7]
import { fork } from 'node:child_process';
import { Pool, request } from 'undici';
import { DataPlatform } from '../dist/index.js';

if (process.argv[2] === 'serve') {
  const { createServer } = await import('node:http');
  const doc = {
    _id: '01JD4X1Q3W4W7T2V1N0A5K9G2B',
    total: 42,
    _createdAt: '2025-01-01T00:00:00.000Z',
    _updatedAt: '2025-01-01T00:00:00.000Z',
  };
  const body = JSON.stringify({ data: [doc, doc, doc], total: 3, limit: 50, skip: 0 });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-request-id': 'req_bench',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
} else {
  const [n = 20_000, concurrency = 32, rounds = 7] = process.argv.slice(2).map(Number);
  const child = fork(new URL(import.meta.url), ['serve']);
  const port = await new Promise((resolve) => child.once('message', resolve));
  const baseUrl = `http://127.0.0.1:${port}`;
  const client = new DataPlatform({ baseUrl, apiKey: 'svc_bench' });
  const url = `${baseUrl}/api/v1/data/orders`;
  const pool = new Pool(baseUrl);

  const variants = {
    'undici.request': async () => {
      const { body } = await request(url, { headers: { 'x-api-key': 'svc_bench' } });
      await body.json();
    },
    'Pool.request': async () => {
      const { body } = await pool.request({
        path: '/api/v1/data/orders',
        method: 'GET',
        headers: { 'x-api-key': 'svc_bench' },
      });
      await body.json();
    },
    'sdk data.list': () => client.data.list('orders'),
    'undici.request POST': async () => {
      const { body } = await request(url, {
        method: 'POST',
        headers: {
          'x-api-key': 'svc_bench',
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        body: JSON.stringify({ item: 'pen', qty: 2 }),
      });
      await body.json();
    },
    'sdk data.create': () => client.data.create('orders', { item: 'pen', qty: 2 }),
  };
  const run = async (fn) => {
    let i = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (i++ < n) await fn();
      }),
    );
    return (n / (performance.now() - start)) * 1000;
  };
  for (const fn of Object.values(variants)) await run(fn); // warm-up
  const results = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++)
    for (const [name, fn] of Object.entries(variants)) results[name].push(await run(fn));
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [name, xs] of Object.entries(results)) {
    console.log(
      `${name.padEnd(20)} median ${Math.round(median(xs))} req/s, best ${Math.round(Math.max(...xs))} req/s`,
    );
  }
  const pairs = [
    ['sdk data.list', 'undici.request'],
    ['sdk data.create', 'undici.request POST'],
  ];
  for (const [sdkName, rawName] of pairs) {
    const ratios = results[sdkName].map((x, i) => x / results[rawName][i]);
    console.log(`${sdkName} / ${rawName}: median of per-round ratios ${median(ratios).toFixed(3)}`);
  }
  child.kill();
}
