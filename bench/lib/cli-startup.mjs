/**
 * The CLI start-up benchmark (issue 9): how long `dp --version` and `dp --help` take from process start to exit,
 * next to `node -e 0` on the same machine, so the figure is what the CLI adds to starting Node at all.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForQuiet, watchCpu } from './cpu.mjs';

/** The goal of the issue: at most this many milliseconds above `node -e 0`. */
export const GOAL_MS = 50;

/**
 * CPU time (microseconds) of this process's children that have exited and been waited for: the started `node`
 * and `dp` processes, which are the benchmark's own work, not other processes'. 0 without /proc.
 */
function childrenCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(')').at(-1).trim().split(/\s+/);
    // cutime and cstime, in clock ticks of 10 ms.
    return (Number(fields[13]) + Number(fields[14])) * 10_000;
  } catch {
    return 0;
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Wall time of one run in milliseconds; throws when the command fails, so a broken build never looks fast. */
function timeRun(args, env) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0)
    throw new Error(`node ${args.join(' ')} exited with ${result.status}: ${result.stderr}`);
  return ms;
}

/**
 * Measures every target `runs` times per round, in a rotating order so none always runs first, for `rounds`
 * rounds; each round waits for a quiet machine first. Resolves with per-target medians per round and the share of
 * the CPU other processes used during each round.
 */
export async function measureStartup({ bin, rounds, runs, log }) {
  const configDir = mkdtempSync(join(tmpdir(), 'dp-bench-config-'));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATAPLATFORM_CONFIG_DIR: configDir };
  const targets = [
    { id: 'node', label: '`node -e 0` (the floor)', args: ['-e', '0'] },
    { id: 'version', label: '`dp --version`', args: [bin, '--version'] },
    { id: 'help', label: '`dp --help`', args: [bin, '--help'] },
    { id: 'config', label: '`dp config list` (reads the profile store)', args: [bin, 'config', 'list'] },
  ];
  const results = Object.fromEntries(targets.map((t) => [t.id, { ...t, rounds: [] }]));
  const others = [];
  try {
    // Warm the file cache and V8's code cache directories once before anything is measured.
    for (const t of targets) timeRun(t.args, env);
    for (let round = 0; round < rounds; round++) {
      await waitForQuiet([]);
      const watch = watchCpu([]);
      const childrenBefore = childrenCpu();
      const samples = Object.fromEntries(targets.map((t) => [t.id, []]));
      for (let i = 0; i < runs; i++) {
        for (let k = 0; k < targets.length; k++) {
          const t = targets[(i + k) % targets.length];
          samples[t.id].push(timeRun(t.args, env));
        }
      }
      others.push(watch.stop(childrenCpu() - childrenBefore));
      for (const t of targets) results[t.id].rounds.push(median(samples[t.id]));
      log(
        `round ${round + 1}: ${targets.map((t) => `${t.id} ${results[t.id].rounds.at(-1).toFixed(1)} ms`).join(', ')}`,
      );
    }
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
  return { targets: Object.values(results), others, bundleBytes: statSync(bin).size };
}

const ms = (value) => value.toFixed(1);
const percent = (share) => (share === null ? 'n/a' : `${Math.round(share * 100)} %`);

/** The `## CLI start-up` section of docs/benchmarks.md, and its goals table alone for the console. */
export function renderStartup({ targets, others, bundleBytes }, { rounds, runs, command, date }) {
  const floor = median(targets.find((t) => t.id === 'node').rounds);
  const rows = targets.map((t) => {
    const value = median(t.rounds);
    const range = `${ms(Math.min(...t.rounds))}–${ms(Math.max(...t.rounds))}`;
    const added = t.id === 'node' ? '—' : `+${ms(value - floor)}`;
    return `| ${t.label} | ${ms(value)} | ${range} | ${added} |`;
  });
  const goals = ['version', 'help'].map((id) => {
    const t = targets.find((x) => x.id === id);
    const added = median(t.rounds) - floor;
    return `| ${t.label} above \`node -e 0\` | ≤ ${GOAL_MS} ms | ${ms(added)} ms | ${added <= GOAL_MS ? '**met**' : '**not met**'} |`;
  });
  const goalsTable = ['| goal | target | measured | verdict |', '|---|---:|---:|---|', ...goals].join('\n');
  const markdown = `## CLI start-up

Produced by \`${command}\` on ${date}. Each target is started ${runs} times per round as its own Node process
(\`${process.version}\`), in a rotating order, and timed from spawn to exit; a round's figure is the median of its
runs, and the table gives the median of ${rounds} rounds with their range. \`dp\` is the built single-file bundle
(\`packages/cli/dist/bin.js\`, ${Math.round(bundleBytes / 1024)} KiB): commander and the command definitions load at
start, while the SDK, conf, chalk and ora are reached through \`import()\` only by the commands that use them.
Other processes used ${others.map(percent).join(', ')} of the CPU during the rounds.

| target | wall time, ms (median) | range of rounds | added to \`node -e 0\`, ms |
|---|---:|---:|---:|
${rows.join('\n')}

${goalsTable}
`;
  return { markdown, goals: goalsTable };
}
