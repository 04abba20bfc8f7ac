/**
 * `pnpm bench:webhook-create`: the webhook-creation benchmark alone (see lib/webhook-create.mjs); prints its
 * section of docs/benchmarks.md and writes it into the page in place of the previous one.
 * Options: --creates 50 --slow-names 20 --delay 800 (ms a slow name takes) --no-postgres --skip-build
 *          --out docs/benchmarks.md
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { postgresBinaries, startPostgres } from './lib/postgres.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';
import { renderCreateSection, runCreateBenchmark } from './lib/webhook-create.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    creates: { type: 'string', default: '50' },
    'slow-names': { type: 'string', default: '20' },
    delay: { type: 'string', default: '800' },
    'no-postgres': { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});

if (!opts['skip-build']) buildPackages(root, ['@dataplatform/contract', '@dataplatform/server']);
const bin = opts['no-postgres'] ? null : postgresBinaries();
const postgres = bin ? await startPostgres(bin) : undefined;
try {
  console.log('webhook creation:');
  const results = await runCreateBenchmark({
    referenceScript: join(here, 'servers', 'reference.mjs'),
    postgres,
    creates: Number(opts.creates),
    slowNames: Number(opts['slow-names']),
    delayMs: Number(opts.delay),
  });
  const args = process.argv.slice(2).join(' ');
  const section = renderCreateSection(results, {
    command: `pnpm bench:webhook-create${args ? ` ${args}` : ''}`,
    date: new Date().toISOString().slice(0, 10),
  });
  console.log(`\n${section}`);
  writeSection(root, opts.out, 'Webhook creation', section);
} finally {
  await postgres?.stop();
}
