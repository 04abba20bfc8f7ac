/**
 * `pnpm bench:pgpool`: the PostgreSQL pool benchmark alone (see lib/pg-pool.mjs); prints its section of
 * docs/benchmarks.md and writes it into the page in place of the previous one. Without PostgreSQL's server
 * binaries (/usr/lib/postgresql or $PG_BIN) it says so and leaves the page as it is.
 * Options: --pool 10 --duration 5 --sustain 20 --warmup 3 --rounds 3 --documents 10000 --skip-build
 *          --out docs/benchmarks.md
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderPoolSection, runPoolBenchmark } from './lib/pg-pool.mjs';
import { postgresBinaries, startPostgres } from './lib/postgres.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    pool: { type: 'string', default: '10' },
    duration: { type: 'string', default: '5' },
    sustain: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    documents: { type: 'string', default: '10000' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
process.on('SIGINT', () => process.exit(130));

const bin = postgresBinaries();
if (!bin) {
  console.log('PostgreSQL pool: skipped, no PostgreSQL server binaries (install postgresql or set PG_BIN)');
  process.exit(0);
}
if (!opts['skip-build']) buildPackages(root, ['@dataplatform/contract', '@dataplatform/server']);
const work = mkdtempSync(join(tmpdir(), 'dataplatform-bench-pgpool-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const pg = await startPostgres(bin);
try {
  console.log('PostgreSQL pool (fewer and more requests in flight than connections):');
  const measured = await runPoolBenchmark({
    pg,
    work,
    ...Object.fromEntries(
      ['pool', 'duration', 'sustain', 'warmup', 'rounds', 'documents'].map((name) => [
        name,
        Number(opts[name]),
      ]),
    ),
    log: console.log,
  });
  const args = process.argv.slice(2).join(' ');
  const section = renderPoolSection(measured, {
    command: `pnpm bench:pgpool${args ? ` ${args}` : ''}`,
    date: new Date().toISOString().slice(0, 10),
  });
  console.log(`\n${section}`);
  writeSection(root, opts.out, 'PostgreSQL pool', section);
} finally {
  await pg.stop();
}
