/**
 * `pnpm bench:python`: GET by id through the Python client against raw httpx on the same connection pool, side by
 * side in one run (sync with threads, async with tasks), on the reference server (SQLite). Writes its section of
 * docs/benchmarks.md. Options: --rounds 5 --seconds 3 --threads 4 --tasks 4 --skip-build --out docs/benchmarks.md
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { flavourRows, startOrderServer } from './lib/client-vs-raw.mjs';
import { pythonClientEnvironment } from './lib/python-venv.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    threads: { type: 'string', default: '4' },
    tasks: { type: 'string', default: '4' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
const GOAL = 0.85;
const TITLE = 'Python client vs httpx (GET by id on the reference server)';

if (!opts['skip-build'])
  buildPackages(root, ['@dataplatform/contract', '@dataplatform/webhooks', '@dataplatform/server']);
const python = pythonClientEnvironment(root);
const server = await startOrderServer(root, 'python');
try {
  console.log(`Python client vs httpx: ${opts.rounds} rounds of ${opts.seconds} s per target and flavour…`);
  const output = execFileSync(
    python,
    [
      join(root, 'bench', 'clients', 'python_get.py'),
      server.url,
      server.apiKey,
      server.id,
      opts.rounds,
      opts.seconds,
      opts.threads,
      opts.tasks,
    ],
    { cwd: root, env: { ...process.env, PYTHONPATH: join(root, 'packages', 'sdk-python', 'src') } },
  );
  const result = JSON.parse(String(output).trim().split('\n').at(-1));
  result.load = loadavg().map((value) => value.toFixed(1));
  const args = process.argv.slice(2).join(' ');
  const markdown = render(result, args ? `pnpm bench:python ${args}` : 'pnpm bench:python');
  console.log(`\n${markdown}`);
  writeSection(root, opts.out, TITLE, markdown);
} finally {
  await server.stop();
}

function render(result, command) {
  const parts = [
    ['sync', `sync, ${opts.threads} threads`],
    ['async', `async, ${opts.tasks} tasks`],
  ].map(([flavour, label]) =>
    flavourRows({
      label,
      rawName: 'httpx `pool.get` + `.json()`',
      clientName: '`client.data.get`',
      raw: result[flavour].httpx,
      client: result[flavour].client,
      versus: 'httpx',
      goal: GOAL,
    }),
  );
  return [
    `## ${TITLE}`,
    '',
    `Produced by \`${command}\` on ${new Date().toISOString().slice(0, 10)}: ${opts.rounds} rounds of ${opts.seconds} s per`,
    'target, alternating which goes first; both share one httpx connection pool (`DataPlatform(http_client=pool)`)',
    "and parse the JSON answer. Figures are medians of the rounds; the ratio is the median of the rounds' ratios.",
    `Load average when the run ended: ${result.load.join(', ')} (2 cores); on a shared machine the absolute rates`,
    'move with the other work, the ratio of two neighbouring measurements much less.',
    '',
    '| flavour | target | req/s (median) | range | ÷ httpx |',
    '|---|---|---:|---:|---:|',
    ...parts.flatMap((part) => part.rows),
    '',
    ...parts.map((part) => part.goal),
  ].join('\n');
}
