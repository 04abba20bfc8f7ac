/**
 * `pnpm bench:batch`: the batch benchmark alone (see lib/batch.mjs); prints its section of docs/benchmarks.md and
 * writes it into the page in place of the previous one.
 * Options: --documents 40000 --no-postgres --skip-build --out docs/benchmarks.md
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderBatchSection, runBatchBenchmark } from './lib/batch.mjs';
import { postgresBinaries, startPostgres } from './lib/postgres.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    documents: { type: 'string', default: '40000' },
    'no-postgres': { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});

if (!opts['skip-build']) buildPackages(root, ['@dataplatform/contract', '@dataplatform/server']);
const bin = opts['no-postgres'] ? null : postgresBinaries();
const postgres = bin ? await startPostgres(bin) : undefined;
try {
  console.log('batch inserts:');
  const results = await runBatchBenchmark({
    referenceScript: join(here, 'servers', 'reference.mjs'),
    documents: Number(opts.documents),
    postgres,
  });
  const args = process.argv.slice(2).join(' ');
  const section = renderBatchSection(results, {
    command: `pnpm bench:batch${args ? ` ${args}` : ''}`,
    date: new Date().toISOString().slice(0, 10),
  });
  console.log(`\n${section}`);
  writeSection(root, opts.out, 'Batch inserts', section);
} finally {
  await postgres?.stop();
}
