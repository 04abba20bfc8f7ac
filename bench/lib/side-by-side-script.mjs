/**
 * The whole of a `pnpm bench:<name>` script for a side-by-side benchmark (lib/side-by-side.mjs): options, build,
 * both servers measured, the section printed and written into docs/benchmarks.md in place of the previous one.
 * Options: --connections 50 --duration 10 --warmup 3 --rounds 3 --documents 10000 --skip-build --out docs/benchmarks.md
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildPackages, writeSection } from './script.mjs';
import { renderSideBySideSection, runSideBySide } from './side-by-side.mjs';

const bench = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(bench, '..');
const NUMBERS = ['connections', 'duration', 'warmup', 'rounds', 'documents'];

/** Runs `benchmark` (a `SideBySideBenchmark`) with the command line's options. */
export async function runSideBySideScript(benchmark) {
  const { values: opts } = parseArgs({
    options: {
      connections: { type: 'string', default: '50' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      rounds: { type: 'string', default: '3' },
      documents: { type: 'string', default: '10000' },
      'skip-build': { type: 'boolean', default: false },
      out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
    },
  });
  process.on('SIGINT', () => process.exit(130));
  if (!opts['skip-build']) buildPackages(root, ['@dataplatform/contract', '@dataplatform/server']);
  const work = mkdtempSync(join(tmpdir(), `dataplatform-bench-${benchmark.name}-`));
  process.on('exit', () => rmSync(work, { recursive: true, force: true }));
  console.log(`${benchmark.heading.toLowerCase()} (GET by id):`);
  const measured = await runSideBySide(benchmark.targets, {
    name: benchmark.name,
    referenceScript: join(bench, 'servers', 'reference.mjs'),
    work,
    ...Object.fromEntries(NUMBERS.map((name) => [name, Number(opts[name])])),
    log: console.log,
  });
  const args = process.argv.slice(2).join(' ');
  const section = renderSideBySideSection(benchmark, measured, {
    command: `pnpm bench:${benchmark.name}${args ? ` ${args}` : ''}`,
    date: new Date().toISOString().slice(0, 10),
  });
  console.log(`\n${section}`);
  writeSection(root, opts.out, benchmark.heading, section);
}
