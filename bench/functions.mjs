/**
 * `pnpm bench:functions`: the functions benchmark alone (see lib/functions.mjs); prints its section of
 * docs/benchmarks.md and writes it into the page in place of the previous one.
 * Options: --count 2000 --seconds 5 --connections 8 --firsts 9 --no-postgres --skip-build --out docs/benchmarks.md
 */
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderFunctionsSection, runFunctionsBenchmark } from './lib/functions.mjs';
import { postgresBinaries, startPostgres } from './lib/postgres.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    count: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '8' },
    firsts: { type: 'string', default: '9' },
    'no-postgres': { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});

if (!opts['skip-build'])
  buildPackages(root, ['@dataplatform/contract', '@dataplatform/webhooks', '@dataplatform/server']);
const load = loadavg()[0].toFixed(2);
const bin = opts['no-postgres'] ? null : postgresBinaries();
const postgres = bin ? await startPostgres(bin) : undefined;
try {
  console.log('functions:');
  const results = await runFunctionsBenchmark({
    referenceScript: join(here, 'servers', 'reference.mjs'),
    postgres,
    count: Number(opts.count),
    seconds: Number(opts.seconds),
    connections: Number(opts.connections),
    firsts: Number(opts.firsts),
  });
  const args = process.argv.slice(2).join(' ');
  const section = renderFunctionsSection(results, {
    command: `pnpm bench:functions${args ? ` ${args}` : ''}`,
    date: new Date().toISOString().slice(0, 10),
    load,
  });
  console.log(`\n${section}`);
  writeSection(root, opts.out, 'Functions', section);
} finally {
  await postgres?.stop();
}
