/**
 * `pnpm bench:cli`: the CLI start-up benchmark alone (see lib/cli-startup.mjs); prints its section of
 * docs/benchmarks.md and writes it into the page in place of the previous one.
 * Options: --rounds 3 --runs 20 --skip-build --out docs/benchmarks.md
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureStartup, renderStartup } from './lib/cli-startup.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    runs: { type: 'string', default: '20' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
const rounds = Number(opts.rounds);
const runs = Number(opts.runs);
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(runs) || runs < 1)
  throw new Error('--rounds and --runs take whole numbers of at least 1');

if (!opts['skip-build']) buildPackages(root, ['@dataplatform/cli']);
const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');
if (!existsSync(bin)) throw new Error(`${relative(root, bin)} is missing: run without --skip-build`);

console.log('CLI start-up:');
const results = await measureStartup({ bin, rounds, runs, log: (line) => console.log(`  ${line}`) });
const args = process.argv.slice(2).join(' ');
const { markdown, goals } = renderStartup(results, {
  rounds,
  runs,
  command: `pnpm bench:cli${args ? ` ${args}` : ''}`,
  date: new Date().toISOString().slice(0, 10),
});
console.log(`\n${goals}\n`);
writeSection(root, opts.out, 'CLI start-up', markdown);
