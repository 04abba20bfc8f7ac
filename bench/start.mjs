/**
 * `pnpm bench:start`: the reference server's start to its first answer (spawn of `node dist/bin.js` to the first
 * 200 on /healthz), over an empty data directory and again over it, beside PocketBase's, in alternating rounds;
 * also the reference server's first answer from the built app (/readyz, which checks the database); writes the
 * `## Start to first answer` section of docs/benchmarks.md.
 * Options: --rounds 10 --skip-build --out docs/benchmarks.md
 *          --before REV: also the reference server of an earlier commit, built in its own worktree, in the same rounds
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { waitForQuiet } from './lib/cpu.mjs';
import { pocketbaseBinary } from './lib/pocketbase.mjs';
import { pocketbaseStartTimes, referenceStartTimes } from './lib/pocketbase-bench.mjs';
import { median, percent } from './lib/report.mjs';
import { buildServer, checkoutRevision, writeSection } from './lib/script.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    'skip-build': { type: 'boolean', default: false },
    before: { type: 'string' },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
const rounds = Number(opts.rounds);
process.on('SIGINT', () => process.exit(130));

const work = mkdtempSync(join(tmpdir(), 'dataplatform-bench-start-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
if (!opts['skip-build']) buildServer(root);
const before = opts.before ? checkoutRevision(root, work, opts.before) : undefined;
const binary = pocketbaseBinary();
const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
  cwd: root,
  encoding: 'utf8',
}).stdout.trim();

/** Each target's samples: a first start over an empty directory and a restart over it, once per round. */
const targets = [
  ...(before
    ? [
        {
          name: `reference server of \`${before.revision}\``,
          run: () => referenceStartTimes({ work, times: 1, checkout: before.dir }),
        },
      ]
    : []),
  {
    name: `reference server of \`${head}\` (this checkout)`,
    run: () => referenceStartTimes({ work, times: 1 }),
  },
  { name: 'PocketBase v0.36.8', run: () => pocketbaseStartTimes(binary, { work, times: 1 }) },
].map((target) => ({ ...target, first: [], restart: [], readyFirst: [], readyRestart: [] }));
const shares = [];
for (let round = 1; round <= rounds; round++) {
  shares.push(await waitForQuiet([process.pid]));
  // A different target goes first in each round, so none always starts on a machine the previous one warmed.
  for (let i = 0; i < targets.length; i++) {
    const target = targets[(i + round) % targets.length];
    const { first, restart, ready } = await target.run();
    target.first.push(first.median);
    target.restart.push(restart.median);
    if (ready) {
      target.readyFirst.push(ready.first.median);
      target.readyRestart.push(ready.restart.median);
    }
  }
  console.log(
    `round ${round}/${rounds}: other processes used ${percent(shares.at(-1))} of the CPU before it`,
  );
}

const cell = (list) =>
  `${median(list).toFixed(0)} (${Math.min(...list).toFixed(0)}–${Math.max(...list).toFixed(0)})`;
// PocketBase's /api/health is answered by its whole app, so its first answer is also its app's.
const readyCell = (list) => (list.length ? cell(list) : '—');
const rows = targets.map(
  (t) =>
    `| ${t.name} | ${cell(t.first)} | ${cell(t.restart)} | ${readyCell(t.readyFirst)} | ${readyCell(t.readyRestart)} |`,
);
const known = shares.filter((share) => typeof share === 'number');
const markdown = `## Start to first answer

Produced by \`pnpm bench:start${opts.before ? ` --before ${opts.before}` : ''} --rounds ${rounds}\` on ${new Date().toISOString().slice(0, 10)}:
spawn to the first 200 on \`/healthz\` (PocketBase: \`/api/health\`), in ms, median of ${rounds} rounds (range), the
targets in a different order each round; and, for the reference server, spawn to the first 200 on \`/readyz\`, the
built app's own answer (\`/healthz\` is answered by the listening socket while the app is built; every other
request waits for the app). Before the rounds, other processes used
${known.length ? `${percent(Math.min(...known))}–${percent(Math.max(...known))}` : 'an unknown share'} of the CPU;
load average when the rounds ended: ${loadavg()
  .map((l) => l.toFixed(2))
  .join(', ')} (${cpus().length} cores).

| server | first start, empty data directory | restart over that directory | app ready (\`/readyz\`), first start | app ready, restart |
|---|---:|---:|---:|---:|
${rows.join('\n')}
`;
console.log(markdown);
writeSection(root, opts.out, 'Start to first answer', markdown);
