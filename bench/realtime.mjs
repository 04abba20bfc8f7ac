/**
 * `pnpm bench:realtime`: open subscriptions on one collection under a steady write load, the reference server's
 * change stream beside PocketBase's realtime (see lib/realtime.mjs); writes the `## Realtime` section of
 * docs/benchmarks.md. PocketBase is built from the Go module proxy on the first run (as `pnpm bench:pocketbase`).
 * Options: --subscribers 1000 --rate 200 --duration 20 --rounds 2 --sampled 1000 --skip-build
 *          --out docs/benchmarks.md (--out - prints the section without writing it)
 *          --only reference|pocketbase: one server alone (e.g. to profile it with BENCH_CPU_PROFILE=<file>)
 * BENCH_MEMORY_TRACE=1 prints the reference server's memory by part every second, BENCH_STALL_TRACE=1 its event
 * loop's longest delay and its garbage collector's pauses, BENCH_HEAP_SAMPLES=<file> a sampling heap profile of
 * what outlived the young generation; BENCH_RECEIVERS_NODE_OPTIONS gives the receivers' process Node.js options
 * (a CPU profile).
 */
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setUpBesidePocketBase } from './lib/pocketbase.mjs';
import { runRealtime } from './lib/realtime.mjs';
import { renderRealtime } from './lib/realtime-report.mjs';
import { writeSection } from './lib/script.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '200' },
    duration: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
    sampled: { type: 'string' },
    only: { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
const settings = Object.fromEntries(
  ['subscribers', 'rate', 'duration', 'rounds'].map((name) => [name, Number(opts[name])]),
);
settings.sampled = Number(opts.sampled ?? settings.subscribers);
for (const [name, value] of Object.entries(settings))
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number of at least 1`);
process.on('SIGINT', () => process.exit(130));

const { binary, work } = setUpBesidePocketBase(root, { skipBuild: opts['skip-build'], name: 'realtime' });

const loadBefore = loadavg()[0];
const runs = await runRealtime({
  ...settings,
  ...(opts.only ? { targets: [opts.only] } : {}),
  // One key holds every subscription: its limit of open streams is raised from 100 to the number of subscribers.
  maxStreams: settings.subscribers,
  binary,
  work,
  log: (line) => console.log(line),
});
const args = process.argv.slice(2).join(' ');
const section = renderRealtime(runs, {
  settings,
  load: { before: loadBefore, after: loadavg()[0] },
  command: `pnpm bench:realtime${args ? ` ${args}` : ''}`,
  date: new Date().toISOString().slice(0, 10),
});
console.log(`\n${section}`);
if (opts.out !== '-') writeSection(root, opts.out, 'Realtime', section);
