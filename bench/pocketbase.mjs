/**
 * `pnpm bench:pocketbase`: the reference server beside PocketBase (see lib/pocketbase-bench.mjs); writes the
 * `## PocketBase` section of docs/benchmarks.md. PocketBase is built from the Go module proxy on the first run.
 * Options: --sizes 10000,1000000 --connections 50 --duration 5 --warmup 2 --rounds 3 --starts 5 --skip-build
 *          --out docs/benchmarks.md
 *          --before REV: also the reference server of an earlier commit (checked out into a temporary git worktree,
 *          installed and built there), measured in the same rounds, for its memory and start beside this one's
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setUpBesidePocketBase } from './lib/pocketbase.mjs';
import { pocketbaseStartTimes, referenceStartTimes, runPocketBase } from './lib/pocketbase-bench.mjs';
import { renderPocketBase } from './lib/pocketbase-report.mjs';
import { formatResult } from './lib/report.mjs';
import { checkoutRevision, writeSection } from './lib/script.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,1000000' },
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    starts: { type: 'string', default: '5' },
    'skip-build': { type: 'boolean', default: false },
    before: { type: 'string' },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
const settings = Object.fromEntries(
  ['connections', 'duration', 'warmup', 'rounds', 'starts'].map((name) => [name, Number(opts[name])]),
);
const sizes = opts.sizes.split(',').map(Number);
if (sizes.some((size) => !Number.isInteger(size) || size < 100))
  throw new Error('--sizes takes whole numbers of at least 100, e.g. 10000,1000000');
process.on('SIGINT', () => process.exit(130));

const { binary, work } = setUpBesidePocketBase(root, { skipBuild: opts['skip-build'], name: 'pocketbase' });
const log = (line) => console.log(line);

let before;
let beforeRevision;
if (opts.before) ({ dir: before, revision: beforeRevision } = checkoutRevision(root, work, opts.before));

// The earlier checkout's starts first, then this one's (each a first start and a restart, `--starts` times).
const beforeStart = before && (await referenceStartTimes({ work, times: settings.starts, checkout: before }));
const start = await referenceStartTimes({ work, times: settings.starts });
const pbStart = await pocketbaseStartTimes(binary, { work, times: settings.starts });
log(
  `start to first answer: reference ${start.first.median.toFixed(0)} ms (restart ${start.restart.median.toFixed(0)} ms), PocketBase ${pbStart.first.median.toFixed(0)} ms`,
);
if (beforeStart)
  log(
    `  before (${beforeRevision}): ${beforeStart.first.median.toFixed(0)} ms (restart ${beforeStart.restart.median.toFixed(0)} ms)`,
  );
const results = await runPocketBase({ ...settings, binary, sizes, work, log, format: formatResult, before });
results.beforeRevision = beforeRevision;
const args = process.argv.slice(2).join(' ');
const section = renderPocketBase(results, {
  start,
  pbStart,
  beforeStart,
  settings,
  command: `pnpm bench:pocketbase${args ? ` ${args}` : ''}`,
  date: new Date().toISOString().slice(0, 10),
});
console.log(`\n${section}`);
writeSection(root, opts.out, 'PocketBase', section);
