/**
 * The functions benchmark (issue 18): a trivial function's invocation over HTTP against a plain GET by id of the
 * same server, side by side in one run: the added latency (one request at a time), the rate (several
 * connections) and the first invoke after a deploy, on each engine.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { startChild } from './child.mjs';
import { processTree, waitForQuiet } from './cpu.mjs';
import { median } from './report.mjs';

const TRIVIAL = 'export default (input) => input;';

/** The value at quantile `q` (0–1) of sorted numbers. */
function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** One request, answered with its status and body; throws unless the status is `expected`. */
async function send(pool, request, expected) {
  const response = await pool.request(request);
  const body = await response.body.text();
  if (response.statusCode !== expected)
    throw new Error(`${request.method} ${request.path} answered ${response.statusCode}: ${body}`);
  return body;
}

/** Milliseconds of each of `count` requests made one after another. */
async function latencies(pool, request, expected, count) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await send(pool, request, expected);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** Requests per second over `seconds`, with `connections` requests in flight at all times. */
async function rate(pool, request, expected, connections, seconds) {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        await send(pool, request, expected);
        done++;
      }
    }),
  );
  return done / seconds;
}

/**
 * Latencies and rates of several requests measured in alternating slices (`slices` of each), so that a change of the
 * machine's load during the run falls on all of them alike rather than on whichever came last.
 */
async function sideBySide(pool, requests, { count, connections, seconds, slices = 5 }) {
  const times = requests.map(() => []);
  const done = requests.map(() => 0);
  for (let slice = 0; slice < slices; slice++) {
    for (const [i, request] of requests.entries())
      times[i].push(...(await latencies(pool, request, 200, Math.ceil(count / slices))));
  }
  for (let slice = 0; slice < slices; slice++) {
    for (const [i, request] of requests.entries())
      done[i] += (await rate(pool, request, 200, connections, seconds / slices)) * (seconds / slices);
  }
  return requests.map((_, i) => ({
    times: times[i].sort((a, b) => a - b),
    rps: done[i] / seconds,
  }));
}

/** The requests of one engine's server: the reference GET, the warm invoke, and deploys for first invokes. */
async function requestsOf(server, dataDir) {
  const { url, apiKey } = server.info;
  const pool = new Pool(url, { connections: 16, pipelining: 1 });
  const json = { 'content-type': 'application/json' };
  const { email, password } = JSON.parse(readFileSync(join(dataDir, 'dev-credentials.json'), 'utf8'));
  const { token } = JSON.parse(
    await send(
      pool,
      { method: 'POST', path: '/api/auth/signin', headers: json, body: JSON.stringify({ email, password }) },
      200,
    ),
  );
  const session = { ...json, authorization: `Bearer ${token}` };
  const keyed = { ...json, 'x-api-key': apiKey };
  await send(
    pool,
    { method: 'POST', path: '/api/v1/data/items', headers: keyed, body: '{"_id":"one","n":1}' },
    201,
  );
  let deploys = 0;
  const deploy = async () => {
    const name = `trivial-${++deploys}`;
    await send(
      pool,
      {
        method: 'POST',
        path: '/api/functions',
        headers: session,
        body: JSON.stringify({ name, code: TRIVIAL }),
      },
      201,
    );
    return { method: 'POST', path: `/api/v1/functions/${name}/invoke`, headers: keyed, body: '{"n":1}' };
  };
  return {
    pool,
    get: { method: 'GET', path: '/api/v1/data/items/one', headers: { 'x-api-key': apiKey } },
    deploy,
  };
}

/** Runs the benchmark on SQLite and, when `postgres` (a started bench PostgreSQL) is given, on PostgreSQL. */
export async function runFunctionsBenchmark({
  referenceScript,
  postgres,
  count = 2000,
  seconds = 5,
  connections = 8,
  firsts = 9,
  log = console.log,
}) {
  const results = { count, seconds, connections, firsts, engines: {} };
  for (const engine of postgres ? ['sqlite', 'postgres'] : ['sqlite']) {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-bench-functions-'));
    const databaseUrl = engine === 'postgres' ? await postgres.createDatabase(`functions_${Date.now()}`) : '';
    const server = await startChild(referenceScript, ['-', dataDir], { env: { DATABASE_URL: databaseUrl } });
    const { pool, get, deploy } = await requestsOf(server, dataDir);
    try {
      // The first invoke of each fresh function: it runs in the isolate the deploy's check made and loaded.
      const first = [];
      for (let i = 0; i < firsts; i++) {
        const invoke = await deploy();
        first.push((await latencies(pool, invoke, 200, 1))[0]);
      }
      const invoke = await deploy();
      // Warm both paths up before measuring.
      await latencies(pool, get, 200, 200);
      await latencies(pool, invoke, 200, 200);
      await waitForQuiet([...processTree(server.pid), ...(engine === 'postgres' ? postgres.pids() : [])]);
      const [{ times: getTimes, rps: getRate }, { times: invokeTimes, rps: invokeRate }] = await sideBySide(
        pool,
        [get, invoke],
        { count, connections, seconds },
      );
      const result = {
        get: { p50: quantile(getTimes, 0.5), p99: quantile(getTimes, 0.99), rps: getRate },
        invoke: { p50: quantile(invokeTimes, 0.5), p99: quantile(invokeTimes, 0.99), rps: invokeRate },
        firstInvoke: { median: median(first), max: Math.max(...first) },
      };
      results.engines[engine] = result;
      log(
        `  ${engine}: GET ${Math.round(getRate)} req/s p50 ${result.get.p50.toFixed(2)} ms; ` +
          `invoke ${Math.round(invokeRate)} req/s p50 ${result.invoke.p50.toFixed(2)} ms; ` +
          `first invoke median ${result.firstInvoke.median.toFixed(1)} ms`,
      );
    } finally {
      await pool.close();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return results;
}

const fixed = (value, digits = 2) => value.toFixed(digits);

/** The page section: a table per engine with the goals of the issue checked. */
export function renderFunctionsSection(results, { command, date, load }) {
  const rows = Object.entries(results.engines).map(([engine, r]) => {
    const share = r.invoke.rps / r.get.rps;
    const added = r.invoke.p50 - r.get.p50;
    return (
      `| ${engine} | ${Math.round(r.get.rps).toLocaleString('en-US')} | ${Math.round(r.invoke.rps).toLocaleString('en-US')} ` +
      `| ${fixed(share)}× ${share >= 0.5 ? '✓' : '✗'} | ${fixed(r.get.p50)} | ${fixed(r.invoke.p50)} ` +
      `| ${fixed(added)} ${added <= 5 ? '✓' : '✗'} | ${fixed(r.firstInvoke.median, 1)} (max ${fixed(r.firstInvoke.max, 1)}) ` +
      `${r.firstInvoke.max <= 50 ? '✓' : '✗'} |`
    );
  });
  return [
    '## Functions',
    '',
    `Measured ${date} with \`${command}\` (load average ${load} before the run). A trivial function`,
    '(`export default (input) => input;`) invoked by key over HTTP (`POST /api/v1/functions/{name}/invoke`) against a',
    `GET by id of one document on the same server, in one run: latencies from ${results.count.toLocaleString('en-US')}`,
    `requests one after another, rates from ${results.connections} connections for ${results.seconds} s each (both in five`,
    'alternating slices, so that a change of load falls on both alike), and the',
    `first invoke of ${results.firsts} freshly deployed functions (in the isolate the deploy's check made and loaded). Goals`,
    '(issue 18): rate ≥ 0.5× the GET rate, p50 added latency ≤ 5 ms, first invoke ≤ 50 ms.',
    '',
    '| engine | GET req/s | invoke req/s | invoke / GET | GET p50 ms | invoke p50 ms | added p50 ms | first invoke ms |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
