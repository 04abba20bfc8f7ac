/**
 * `pnpm bench:go`: GET by id through the Go client against raw net/http on the same transport, side by side in one
 * run (goroutines calling in a loop), on the reference server (SQLite). Writes its section of docs/benchmarks.md.
 * Options: --rounds 5 --seconds 3 --workers 4 --skip-build --out docs/benchmarks.md
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { flavourRows, median, startOrderServer } from './lib/client-vs-raw.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    workers: { type: 'string', default: '4' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
const GOAL = 0.9;
const TITLE = 'Go client vs net/http (GET by id on the reference server)';
const program = join(root, 'bench', 'clients', 'go-get');

if (!opts['skip-build'])
  buildPackages(root, ['@dataplatform/contract', '@dataplatform/webhooks', '@dataplatform/server']);
// Built before the server starts, so the compiler never competes with the measurement.
const work = mkdtempSync(join(tmpdir(), 'dp-bench-go-'));
const binary = join(work, 'goget');
execFileSync('go', ['build', '-o', binary, '.'], { cwd: program, stdio: 'inherit' });
const server = await startOrderServer(root, 'go');
try {
  const { url, apiKey, id } = server;
  console.log(`Go client vs net/http: ${opts.rounds} rounds of ${opts.seconds} s per target…`);
  const output = execFileSync(binary, [url, apiKey, id, opts.rounds, opts.seconds, opts.workers]);
  const result = JSON.parse(String(output).trim().split('\n').at(-1));
  result.overhead = overheadPerCall();
  result.load = loadavg().map((value) => value.toFixed(1));
  const args = process.argv.slice(2).join(' ');
  const markdown = render(result, args ? `pnpm bench:go ${args}` : 'pnpm bench:go');
  console.log(`\n${markdown}`);
  writeSection(root, opts.out, TITLE, markdown);
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

/**
 * The client's own cost per call, without network or server: the module's GetByID benchmarks over a transport that
 * answers at once (packages/sdk-go/overhead_test.go), one test binary run per target and round, alternating which
 * goes first as the rounds above do; medians of the rounds.
 */
function overheadPerCall() {
  const binary = join(work, 'sdk-go.test');
  execFileSync('go', ['test', '-c', '-o', binary, '.'], {
    cwd: join(root, 'packages', 'sdk-go'),
    stdio: 'inherit',
  });
  const names = { raw: 'BenchmarkGetByIDRawNetHTTP', client: 'BenchmarkGetByIDClient' };
  const runs = { raw: [], client: [] };
  for (let round = 0; round < Number(opts.rounds); round++) {
    for (const target of round % 2 ? ['client', 'raw'] : ['raw', 'client']) {
      const output = execFileSync(
        binary,
        ['-test.run', '^$', '-test.bench', `^${names[target]}$`, '-test.benchtime', '1s'],
        { encoding: 'utf8' },
      );
      const match = /\s([\d.]+) ns\/op\s+(\d+) B\/op\s+(\d+) allocs\/op/.exec(output);
      if (!match) throw new Error(`no benchmark line in:\n${output}`);
      runs[target].push({ ns: Number(match[1]), bytes: Number(match[2]), allocs: Number(match[3]) });
    }
  }
  const summary = (list) => ({
    ns: median(list.map((r) => r.ns)),
    bytes: median(list.map((r) => r.bytes)),
    allocs: median(list.map((r) => r.allocs)),
  });
  return { raw: summary(runs.raw), client: summary(runs.client) };
}

function render(result, command) {
  const label = `${opts.workers} goroutines`;
  const flavour = flavourRows({
    label,
    rawName: '`pool.Do` + `json.Unmarshal`',
    clientName: '`c.Data.Get`',
    raw: result.raw,
    client: result.client,
    versus: 'net/http',
    goal: GOAL,
  });
  const fmt = (v) => Math.round(v).toLocaleString('en-US');
  return [
    `## ${TITLE}`,
    '',
    `Produced by \`${command}\` on ${new Date().toISOString().slice(0, 10)}: ${opts.rounds} rounds of ${opts.seconds} s per`,
    'target, alternating which goes first; both send through one `http.Transport`',
    '(`dataplatform.WithHTTPClient(pool)`) and decode the JSON answer into a map. Figures are medians of the rounds;',
    "the ratio is the median of the rounds' ratios.",
    `Load average when the run ended: ${result.load.join(', ')} (2 cores); on a shared machine the absolute rates`,
    'move with the other work, the ratio of two neighbouring measurements much less.',
    '',
    '| flavour | target | req/s (median) | range | ÷ net/http |',
    '|---|---|---:|---:|---:|',
    ...flavour.rows,
    '',
    flavour.goal,
    '',
    "The client's own cost per call, without network or server (the `GetByID` benchmarks of `packages/sdk-go`, a",
    `transport that answers at once; ${opts.rounds} alternating rounds of 1 s per target, medians): what it adds is a`,
    'request id, the per-attempt timeout, the retry loop and the path escaping.',
    '',
    '| target | µs per call | bytes allocated | allocations |',
    '|---|---:|---:|---:|',
    ...['raw', 'client'].map((name) => {
      const row = result.overhead[name];
      const target = name === 'raw' ? '`pool.Do` + `json.Unmarshal`' : '`c.Data.Get`';
      return `| ${target} | ${(row.ns / 1000).toFixed(1)} | ${fmt(row.bytes)} | ${row.allocs} |`;
    }),
  ].join('\n');
}
