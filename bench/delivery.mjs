/**
 * `pnpm bench:delivery`: the webhook delivery benchmark alone (see lib/delivery.mjs); prints its section of
 * docs/benchmarks.md and writes it into the page in place of the previous one.
 * Options: --rate 200 --seconds 10 --warmup 2 --rounds 3 --no-postgres --skip-build --out docs/benchmarks.md
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderDeliverySection, runDeliveryBenchmark } from './lib/delivery.mjs';
import { postgresBinaries, startPostgres } from './lib/postgres.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    'no-postgres': { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});

if (!opts['skip-build']) buildPackages(root, ['@dataplatform/contract', '@dataplatform/server']);
const bin = opts['no-postgres'] ? null : postgresBinaries();
const postgres = bin ? await startPostgres(bin) : undefined;
try {
  console.log('webhook delivery:');
  const results = await runDeliveryBenchmark({
    referenceScript: join(here, 'servers', 'reference.mjs'),
    postgres,
    rate: Number(opts.rate),
    seconds: Number(opts.seconds),
    warmup: Number(opts.warmup),
    rounds: Number(opts.rounds),
  });
  const args = process.argv.slice(2).join(' ');
  const section = renderDeliverySection(results, {
    command: `pnpm bench:delivery${args ? ` ${args}` : ''}`,
    date: new Date().toISOString().slice(0, 10),
  });
  console.log(`\n${section}`);
  writeSection(root, opts.out, 'Webhook delivery', section);
} finally {
  await postgres?.stop();
}
