/**
 * The realtime part of the benchmark: `subscribers` open subscriptions on one collection while a separate load
 * writes `rate` documents a second for `duration` seconds, on the reference server (its change stream,
 * `GET /api/v1/data/orders/changes`) and on PocketBase (its realtime SSE, subscribed to `orders`). Each write
 * carries its send time and sequence number; the receivers (bench/clients/realtime-receivers.mjs, a process of its
 * own) check that every subscriber gets every write and time write → event. The server's resident memory is read
 * before the subscriptions open and sampled while they run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { serverNodeFlags, startChild } from './child.mjs';
import { cpuTime, processTree, waitForQuiet, watchCpu } from './cpu.mjs';
import { makeOrders } from './data.mjs';
import { residentMemory, sampleMemory } from './memory.mjs';
import { preparePocketBase } from './pocketbase.mjs';
import { prepare } from './scale-target.mjs';

const RECEIVERS = fileURLToPath(new URL('../clients/realtime-receivers.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const TARGETS = ['reference', 'pocketbase'];
/** Documents in the collection before the run (a collection in use, not an empty one). */
const SEEDED = 1_000;
const ORDERS = makeOrders(100);
/** The fields PocketBase's `orders` needs beside the orders' own to keep what each write carries. */
const POCKETBASE_FIELDS = [
  { name: 'seq', type: 'number' },
  { name: 'sentAt', type: 'number' },
];

/** One fresh server of `name` with its `orders` collection seeded; `{ server, headers, writePath, streamHeaders }`. */
async function prepareTarget(name, { binary, work, log, maxStreams }) {
  if (name === 'pocketbase') {
    const target = await preparePocketBase(binary, SEEDED, { work, log, fields: POCKETBASE_FIELDS });
    return {
      ...target,
      writePath: '/api/collections/orders/records',
      streamHeaders: { authorization: target.headers.authorization },
    };
  }
  const env = { DATAPLATFORM_MAX_STREAMS: String(maxStreams) };
  // Started with the flags of the server's bin (its young generation's cap), as its users start it.
  const target = await prepare('sqlite', SEEDED, { work, log, env, nodeOptions: serverNodeFlags(ROOT) });
  return {
    ...target,
    writePath: '/api/v1/data/orders',
    streamHeaders: { 'x-api-key': target.server.info.apiKey },
  };
}

/**
 * Writes `rate` documents a second for `seconds`, each sent at its own time whatever the answers before it
 * (an open loop: a slow server makes writes wait in line, not the load thin out). Resolves with the writes sent,
 * the ones that failed, the rate reached and the answers' p99 in ms.
 */
async function writeSteadily({ url, headers, path, rate, seconds }) {
  const pool = new Pool(url, { connections: 16 });
  const count = rate * seconds;
  const answers = [];
  let failed = 0;
  let firstError;
  const started = performance.now();
  const inFlight = [];
  for (let seq = 0; seq < count; seq++) {
    const due = started + (seq * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const sentAt = performance.timeOrigin + performance.now();
    const body = JSON.stringify({ ...ORDERS[seq % ORDERS.length], seq, sentAt });
    inFlight.push(
      pool
        .request({ method: 'POST', path, headers, body })
        .then(async (response) => {
          await response.body.dump();
          if (response.statusCode >= 300) throw new Error(`write answered ${response.statusCode}`);
          answers.push(performance.timeOrigin + performance.now() - sentAt);
        })
        .catch((error) => {
          failed++;
          firstError ??= error.message;
        }),
    );
  }
  const sendSeconds = (performance.now() - started) / 1000;
  await Promise.all(inFlight);
  await pool.close();
  answers.sort((a, b) => a - b);
  return {
    sent: count,
    failed,
    firstError,
    rate: count / sendSeconds,
    answerP99: answers[Math.floor(answers.length * 0.99)] ?? null,
  };
}

/**
 * One run on one fresh target: memory before subscribing, `subscribers` subscriptions, `rate` writes a second for
 * `duration` seconds; resolves with the receivers' result, the writes, memory before and at its peak, and the CPU
 * of the server, the receivers and everything else.
 */
export async function runTarget(name, options) {
  const { subscribers, rate, duration, sampled, work, log } = options;
  const target = await prepareTarget(name, options);
  const { pid } = target.server;
  try {
    await waitForQuiet([pid], { patience: 15_000 });
    await sleep(2_000);
    const before = residentMemory(pid);
    const resultFile = join(work, `realtime-${name}-${Date.now()}.json`);
    const receiverOptions = {
      kind: name,
      url: target.server.info.url,
      headers: target.streamHeaders,
      subscribers,
      expected: rate * duration,
      sampled,
      resultFile,
    };
    const sampler = sampleMemory(pid);
    const opening = performance.now();
    const receivers = await startChild(RECEIVERS, [JSON.stringify(receiverOptions)], {
      // e.g. `--cpu-prof --cpu-prof-dir=<dir>`, to see what the measuring side costs.
      nodeOptions: (process.env.BENCH_RECEIVERS_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
    });
    const openSeconds = (performance.now() - opening) / 1000;
    const subscribed = residentMemory(pid);
    await sleep(1_000);
    const watch = watchCpu([pid, receivers.pid]);
    const serverCpu = cpuTime(processTree(pid));
    const started = performance.timeOrigin + performance.now();
    const writes = await writeSteadily({
      url: target.server.info.url,
      headers: target.headers,
      path: target.writePath,
      rate,
      seconds: duration,
    });
    const [code] = await receivers.exited;
    if (code !== 0) throw new Error(`the ${name} receivers exited with code ${code}`);
    const result = JSON.parse(readFileSync(resultFile, 'utf8'));
    // From the first write to the last event (the receivers wait a few idle seconds more before they exit).
    const seconds = ((result.lastEventAt || performance.timeOrigin + performance.now()) - started) / 1000;
    const peak = await sampler.stop();
    const run = {
      ...result,
      writes,
      openSeconds,
      memory: { before, subscribed, peak },
      // Shares of one core over the writes and the delivery of their events.
      serverCpuSeconds: (cpuTime(processTree(pid)) - serverCpu) / 1e6,
      serverCpu: (cpuTime(processTree(pid)) - serverCpu) / 1e6 / seconds,
      receiversCpu: result.cpuShare,
      others: watch.stop(),
    };
    log(`  ${name.padEnd(10)} ${formatRun(run)}`);
    return run;
  } finally {
    await target.server.stop();
  }
}

const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** One run on one console line. */
export function formatRun(run) {
  const { latency, memory } = run;
  const growth = memory.peak.rss - memory.before.rss;
  return (
    `p50 ${latency.p50?.toFixed(1)} ms  p99 ${latency.p99?.toFixed(1)} ms  max ${latency.max?.toFixed(0)} ms  ` +
    `lost ${run.lost}  dup ${run.duplicates}  RSS +${mib(growth)} (anon +${mib(memory.peak.anon - memory.before.anon)})  ` +
    `server CPU ${Math.round(run.serverCpu * 100)} %  receivers ${Math.round(run.receiversCpu * 100)} %  ` +
    `writes ${run.writes.rate.toFixed(0)}/s (${run.writes.failed} failed, answer p99 ${run.writes.answerP99?.toFixed(0)} ms)  ` +
    `subscribed RSS +${mib(memory.subscribed.rss - memory.before.rss)}  others ${Math.round((run.others ?? 0) * 100)} %`
  );
}

/**
 * `rounds` rounds, each running the `targets` (fresh servers) one after the other, in alternating order.
 */
export async function runRealtime(options) {
  const { rounds, log, targets = TARGETS } = options;
  const runs = Object.fromEntries(targets.map((name) => [name, []]));
  for (let round = 1; round <= rounds; round++) {
    log(`round ${round}`);
    for (const name of round % 2 ? targets : [...targets].reverse())
      runs[name].push(await runTarget(name, options));
  }
  return runs;
}
