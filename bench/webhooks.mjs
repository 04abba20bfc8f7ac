/**
 * `pnpm bench:webhooks`: the webhook verification benchmark alone (see lib/webhooks.mjs); prints its section of
 * docs/benchmarks.md and writes it into the page in place of the previous one. `pnpm bench` runs it last.
 * Options: --rounds 5 --warmup 1 --duration 2 (seconds per target and round) --skip-build --out docs/benchmarks.md
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildPackages, writeSection } from './lib/script.mjs';
import { renderWebhookSection, runWebhookBenchmark } from './lib/webhooks.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    duration: { type: 'string', default: '2' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
const settings = {
  rounds: Number(opts.rounds),
  warmup: Number(opts.warmup),
  duration: Number(opts.duration),
};

if (!opts['skip-build']) buildPackages(root, ['@dataplatform/webhooks']);
// Imported only now: it loads the package's build.
const { bodyLength } = await import('./lib/webhook-targets.mjs');

console.log('webhook verification:');
const measured = runWebhookBenchmark({ ...settings, log: console.log });
const args = process.argv.slice(2).join(' ');
// Run by `pnpm bench`, its own arguments are internal; run alone, they are the user's.
const lifecycle = process.env.npm_lifecycle_event;
const command =
  lifecycle === 'bench'
    ? 'pnpm bench'
    : `${lifecycle === 'bench:webhooks' ? 'pnpm bench:webhooks' : 'node bench/webhooks.mjs'}${args ? ` ${args}` : ''}`;
const { markdown, goals } = renderWebhookSection(measured, {
  ...settings,
  bodyLength,
  command,
  date: new Date().toISOString().slice(0, 10),
});
console.log(`\n${goals}\n`);
writeSection(root, opts.out, 'Webhook verification', markdown);
