/**
 * The receiving side of the realtime benchmark, in a process of its own: opens `subscribers` server-sent event
 * subscriptions (the reference server's change stream, or PocketBase's realtime), prints `{ ready: true }` once
 * every one is open, then reads every event of every subscriber until each has all `expected` writes (or nothing
 * came for `idleMs`), and writes its result as JSON into `resultFile` before it exits.
 *
 * Every event of every subscriber counts: its `seq` is marked as received (so losses and duplicates are exact) and,
 * for the first `sampled` subscribers, the time from the write's `sentAt` to the event's arrival is kept. Both
 * clocks are the wall clock at sub-millisecond resolution (`performance.timeOrigin + performance.now()`), read on
 * the same machine by the writer and here.
 * Usage: realtime-receivers.mjs '<json options>'
 */
import { writeFileSync } from 'node:fs';
import { Pool } from 'undici';

const options = JSON.parse(process.argv[2]);
const { kind, url, headers, subscribers, expected, sampled, resultFile, idleMs = 5_000 } = options;
const now = () => performance.timeOrigin + performance.now();

const received = new Uint8Array(subscribers * expected);
const latencies = new Float64Array(Math.min(sampled, subscribers) * expected);
let latencyCount = 0;
let unique = 0;
let duplicates = 0;
let unexpected = 0;
let ended = 0;
let firstError;
let firstEventAt;
let cpuAtFirstEvent;
let lastEventAt = 0;

// Every subscription holds its own connection for as long as the run lasts.
const streams = new Pool(url, { connections: subscribers, bodyTimeout: 0, headersTimeout: 60_000 });
const calls = new Pool(url, { connections: 8 });

/** Reads the `"name":<number>` member out of an event's JSON text without parsing all of it. */
function numberAfter(text, name, from) {
  const at = text.indexOf(name, from);
  return at < 0 ? Number.NaN : Number.parseFloat(text.slice(at + name.length, at + name.length + 24));
}

/** Marks one event's write as received by `subscriber`; `block` is one server-sent event's text. */
function onEvent(subscriber, block, at) {
  const seqAt = block.indexOf('"seq":');
  if (seqAt < 0) return;
  const seq = numberAfter(block, '"seq":', seqAt);
  if (!Number.isInteger(seq) || seq < 0 || seq >= expected) {
    unexpected++;
    return;
  }
  if (firstEventAt === undefined) {
    firstEventAt = at;
    cpuAtFirstEvent = process.cpuUsage();
  }
  lastEventAt = at;
  const slot = subscriber * expected + seq;
  if (received[slot]) {
    duplicates++;
    return;
  }
  received[slot] = 1;
  unique++;
  if (subscriber < sampled) latencies[latencyCount++] = at - numberAfter(block, '"sentAt":', 0);
}

/** Splits a subscription's body into events (blank-line separated), calling `onBlock` for each complete one. */
function readEvents(body, onBlock) {
  let rest = '';
  body.setEncoding('latin1');
  body.on('data', (chunk) => {
    const at = now();
    const text = rest + chunk;
    let start = 0;
    for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n', start)) {
      onBlock(text.slice(start, end), at);
      start = end + 2;
    }
    rest = text.slice(start);
  });
  body.on('error', (error) => {
    firstError ??= error.message;
  });
  body.on('end', () => ended++);
}

async function openReference(subscriber) {
  const response = await streams.request({ method: 'GET', path: '/api/v1/data/orders/changes', headers });
  if (response.statusCode !== 200)
    throw new Error(`GET …/changes answered ${response.statusCode}: ${await response.body.text()}`);
  readEvents(response.body, (block, at) => onEvent(subscriber, block, at));
}

/** PocketBase: `GET /api/realtime` sends PB_CONNECT with the client's id, which then subscribes to `orders`. */
async function openPocketBase(subscriber) {
  const response = await streams.request({ method: 'GET', path: '/api/realtime', headers });
  if (response.statusCode !== 200) throw new Error(`GET /api/realtime answered ${response.statusCode}`);
  const connected = new Promise((resolve) => {
    readEvents(response.body, (block, at) => {
      if (block.includes('event:PB_CONNECT')) resolve(JSON.parse(block.slice(block.indexOf('data:') + 5)));
      else onEvent(subscriber, block, at);
    });
  });
  const { clientId } = await connected;
  const subscribed = await calls.request({
    method: 'POST',
    path: '/api/realtime',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ clientId, subscriptions: ['orders'] }),
  });
  await subscribed.body.dump();
  if (subscribed.statusCode !== 204) throw new Error(`POST /api/realtime answered ${subscribed.statusCode}`);
}

const open = kind === 'pocketbase' ? openPocketBase : openReference;
// Opened a hundred at a time, as clients arriving, rather than a thousand connections in one burst.
for (let first = 0; first < subscribers; first += 100)
  await Promise.all(Array.from({ length: Math.min(100, subscribers - first) }, (_, i) => open(first + i)));
const cpuAtReady = process.cpuUsage();
console.log(JSON.stringify({ ready: true }));

const total = subscribers * expected;
await new Promise((resolve) => {
  const timer = setInterval(() => {
    const idle = lastEventAt > 0 && now() - lastEventAt > idleMs;
    if (unique === total || idle || ended === subscribers) {
      clearInterval(timer);
      resolve();
    }
  }, 20);
});

const sorted = latencies.subarray(0, latencyCount).sort();
const percentile = (p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null;
const cpu = process.cpuUsage(cpuAtFirstEvent ?? cpuAtReady);
let subscribersMissing = 0;
for (let s = 0; s < subscribers; s++) {
  const row = received.subarray(s * expected, (s + 1) * expected);
  if (row.includes(0)) subscribersMissing++;
}
writeFileSync(
  resultFile,
  JSON.stringify({
    subscribers,
    expected,
    received: unique,
    lost: total - unique,
    subscribersMissing,
    duplicates,
    unexpected,
    ended,
    firstError,
    lastEventAt,
    latency: {
      samples: sorted.length,
      p50: percentile(50),
      p90: percentile(90),
      p99: percentile(99),
      max: sorted.length ? sorted[sorted.length - 1] : null,
    },
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    // The receivers' own CPU while events arrived, as a share of one core.
    cpuShare:
      firstEventAt === undefined ? null : (cpu.user + cpu.system) / 1000 / (lastEventAt - firstEventAt || 1),
  }),
);
process.exit(0);
