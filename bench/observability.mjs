/**
 * `pnpm bench:observability`: the request-log and metrics benchmark alone (see lib/observability.mjs); prints its section of
 * docs/benchmarks.md and writes it into the page in place of the previous one.
 * Options: --connections 50 --duration 10 --warmup 3 --rounds 3 --documents 10000 --skip-build --out docs/benchmarks.md
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderObservabilitySection, runObservabilityBenchmark } from './lib/observability.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
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
const work = mkdtempSync(join(tmpdir(), 'dataplatform-bench-observability-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
console.log('request logs and metrics (GET by id):');
const measured = await runObservabilityBenchmark({
  referenceScript: join(here, 'servers', 'reference.mjs'),
  work,
  ...Object.fromEntries(
    ['connections', 'duration', 'warmup', 'rounds', 'documents'].map((name) => [name, Number(opts[name])]),
  ),
  log: console.log,
});
const args = process.argv.slice(2).join(' ');
const section = renderObservabilitySection(measured, {
  command: `pnpm bench:observability${args ? ` ${args}` : ''}`,
  date: new Date().toISOString().slice(0, 10),
});
console.log(`\n${section}`);
writeSection(root, opts.out, 'Request logs and metrics', section);
