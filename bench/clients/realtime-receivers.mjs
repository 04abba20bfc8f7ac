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
import { openStream } from './sse-socket.mjs';

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

// Every subscription holds its own socket for as long as the run lasts (see sse-socket.mjs); calls share a pool.
const calls = new Pool(url, { connections: 8 });

/**
 * The number after `name` in `text`, looked for from `from` to `to` (one event's JSON text, read without parsing
 * all of it, nor copying it: a thousand subscribers make 200,000 events a second here).
 */
function numberAfter(text, name, from, to) {
  const at = text.indexOf(name, from);
  if (at < 0 || at >= to) return Number.NaN;
  let i = at + name.length;
  while (text.charCodeAt(i) === 32) i++;
  let whole = 0;
  let digits = 0;
  for (let c = text.charCodeAt(i); c >= 48 && c <= 57; c = text.charCodeAt(++i), digits++)
    whole = whole * 10 + c - 48;
  if (digits === 0) return Number.NaN;
  if (text.charCodeAt(i) !== 46) return whole;
  let fraction = 0;
  let scale = 1;
  for (let c = text.charCodeAt(++i); c >= 48 && c <= 57; c = text.charCodeAt(++i)) {
    fraction = fraction * 10 + c - 48;
    scale *= 10;
  }
  return whole + fraction / scale;
}

/**
 * Marks one event's write as received by `subscriber`, the event being `text` from `start` to `end`; false when it
 * carries no write (PocketBase's PB_CONNECT, a comment).
 */
function onEvent(subscriber, text, start, end, at) {
  const seq = numberAfter(text, '"seq":', start, end);
  if (Number.isNaN(seq)) return false;
  if (!Number.isInteger(seq) || seq < 0 || seq >= expected) {
    unexpected++;
    return true;
  }
  if (firstEventAt === undefined) {
    firstEventAt = at;
    cpuAtFirstEvent = process.cpuUsage();
  }
  lastEventAt = at;
  const slot = subscriber * expected + seq;
  if (received[slot]) {
    duplicates++;
    return true;
  }
  received[slot] = 1;
  unique++;
  if (subscriber < sampled) latencies[latencyCount++] = at - numberAfter(text, '"sentAt":', start, end);
  return true;
}

/**
 * Splits a subscription's body into events (blank-line separated): each complete one is counted for `subscriber`,
 * and those that carry no write go to `onOther` as text.
 */
function readEvents(stream, subscriber, onOther) {
  let rest = '';
  stream.onText((chunk) => {
    const at = now();
    const text = rest ? rest + chunk : chunk;
    let start = 0;
    for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n', start)) {
      if (!onEvent(subscriber, text, start, end, at) && onOther) onOther(text.slice(start, end));
      start = end + 2;
    }
    rest = start < text.length ? text.slice(start) : '';
  });
  stream.onEnd((error) => {
    if (error) firstError ??= error.message;
    ended++;
  });
}

/** Opens `path` as a stream; a status other than 200 fails the run with what the server said. */
async function openOk(path) {
  const stream = await openStream(url, path, headers);
  if (stream.status === 200) return stream;
  let said = '';
  stream.onText((text) => (said += text));
  await new Promise((resolve) => setTimeout(resolve, 200));
  stream.close();
  throw new Error(`GET ${path} answered ${stream.status}: ${said.slice(0, 500)}`);
}

async function openReference(subscriber) {
  readEvents(await openOk('/api/v1/data/orders/changes'), subscriber);
}

/** PocketBase: `GET /api/realtime` sends PB_CONNECT with the client's id, which then subscribes to `orders`. */
async function openPocketBase(subscriber) {
  const stream = await openOk('/api/realtime');
  const connected = new Promise((resolve) => {
    readEvents(stream, subscriber, (block) => {
      if (block.includes('event:PB_CONNECT')) resolve(JSON.parse(block.slice(block.indexOf('data:') + 5)));
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
