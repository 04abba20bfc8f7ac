/**
 * Closed-loop GET-by-id client: `connections` concurrent loops, each sending its next request when the previous
 * answer is read, for `warmup` then `duration` seconds. Prints `{ rps, p50, p99, total, failed, firstError, cpuPerRequest, cpuMicroseconds }` as one JSON line.
 * Usage: get-loop.mjs <sdk|undici> <baseUrl> <apiKey> <idCount> <connections> <duration> <warmup>
 */
import { orderId } from '../lib/data.mjs';

const [mode, baseUrl, apiKey, ...numbers] = process.argv.slice(2);
const [idCount, connections, duration, warmup] = numbers.map(Number);

/** One GET by id through the client under test; resolves with the parsed document. */
async function makeGet() {
  if (mode === 'sdk') {
    const { DataPlatform } = await import('@dataplatform/sdk');
    const client = new DataPlatform({ apiKey, baseUrl });
    return (id) => client.data.get('orders', id);
  }
  const { request } = await import('undici');
  const headers = { 'x-api-key': apiKey };
  return async (id) => {
    const response = await request(`${baseUrl}/api/v1/data/orders/${id}`, { headers });
    const doc = await response.body.json();
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
    return doc;
  };
}

/** Runs the loops for `seconds`; latencies in milliseconds are kept only when `latencies` is given. */
async function loops(get, seconds, latencies) {
  const end = performance.now() + seconds * 1000;
  let total = 0;
  let failed = 0;
  let firstError;
  const loop = async () => {
    while (performance.now() < end) {
      const id = orderId(1 + Math.floor(Math.random() * idCount));
      const start = performance.now();
      try {
        const doc = await get(id);
        if (doc._id !== id) throw new Error(`asked for ${id}, got ${doc._id}`);
        total++;
        latencies?.push(performance.now() - start);
      } catch (error) {
        failed++;
        firstError ??= String(error?.message ?? error);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  return { total, failed, firstError, elapsed: (performance.now() - started) / 1000 };
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

let get;
try {
  get = await makeGet();
} catch (error) {
  // A missing or broken build is a reason to skip this client, not a crash of the whole benchmark.
  console.log(
    JSON.stringify({
      skipped: `cannot load the ${mode} client: ${String(error?.message ?? error).split('\n')[0]}`,
    }),
  );
  process.exit(0);
}
await loops(get, warmup);
const latencies = [];
const cpuBefore = process.cpuUsage();
const { total, failed, firstError, elapsed } = await loops(get, duration, latencies);
const cpu = process.cpuUsage(cpuBefore);
latencies.sort((a, b) => a - b);
const round = (ms) => Math.round(ms * 100) / 100;
console.log(
  JSON.stringify({
    rps: total / elapsed,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    total,
    failed,
    firstError,
    // When the server is the bottleneck, both clients reach the same rate; their own CPU cost still differs.
    cpuPerRequest: total ? Math.round(((cpu.user + cpu.system) / total) * 100) / 100 : undefined,
    // The parent cannot read this process's CPU time once it has exited, so it is reported here.
    cpuMicroseconds: process.cpuUsage().user + process.cpuUsage().system,
  }),
);
process.exit(0);
