/**
 * `pnpm bench:pgcommit`: single inserts on the reference server over PostgreSQL with the server's commit settings
 * as installed and with `commit_delay`, side by side in one run. PostgreSQL already writes concurrent commits with
 * one WAL flush (its own group commit); `commit_delay` makes a committing backend wait a little for others to join
 * when at least `commit_siblings` transactions are open. This measures whether that helps our write path, and
 * writes the section "PostgreSQL commits" of docs/benchmarks.md. Without PostgreSQL's server binaries
 * (/usr/lib/postgresql or $PG_BIN) it says so and leaves the page as it is.
 * Options: --connections 50 --pool 10 --delays 0,100,1000 --duration 5 --warmup 2 --rounds 3 --documents 10000
 *          --skip-build --out docs/benchmarks.md
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuTime, waitForQuiet, watchCpu } from './lib/cpu.mjs';
import { measure } from './lib/load.mjs';
import { startPostgresTarget } from './lib/pg-pool.mjs';
import { postgresBinaries, startPostgres } from './lib/postgres.mjs';
import { combine, formatResult, ms, number, percent, ratio } from './lib/report.mjs';
import { requestOf } from './lib/scale-target.mjs';
import { buildPackages, writeSection } from './lib/script.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    connections: { type: 'string', default: '50' },
    pool: { type: 'string', default: '10' },
    delays: { type: 'string', default: '0,100,1000' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    documents: { type: 'string', default: '10000' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
process.on('SIGINT', () => process.exit(130));
const settings = Object.fromEntries(
  ['connections', 'pool', 'duration', 'warmup', 'rounds', 'documents'].map((name) => [
    name,
    Number(opts[name]),
  ]),
);
const delays = opts.delays.split(',').map(Number);

const bin = postgresBinaries();
if (!bin) {
  console.log(
    'PostgreSQL commits: skipped, no PostgreSQL server binaries (install postgresql or set PG_BIN)',
  );
  process.exit(0);
}
if (!opts['skip-build']) buildPackages(root, ['@dataplatform/contract', '@dataplatform/server']);
const work = mkdtempSync(join(tmpdir(), 'dataplatform-bench-pgcommit-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const pg = await startPostgres(bin);
const results = new Map(delays.map((delay) => [delay, []]));
try {
  const target = await startPostgresTarget({
    pg,
    pool: settings.pool,
    documents: settings.documents,
    work,
    name: 'commits',
  });
  try {
    const serving = target.pids();
    const insert = requestOf(target, 'insert');
    for (let round = 1; round <= settings.rounds; round++) {
      // Alternate the order, so that a burst of other work does not always hit the same setting.
      const order = round % 2 ? delays : [...delays].reverse();
      for (const delay of order) {
        await pg.configure({ commit_delay: delay });
        await measure({ ...insert, connections: settings.connections, duration: settings.warmup });
        await waitForQuiet(serving, { patience: 10_000 });
        const watch = watchCpu(serving);
        const before = cpuTime(serving);
        const result = await measure({
          ...insert,
          connections: settings.connections,
          duration: settings.duration,
        });
        result.others = watch.stop();
        if (before !== null) result.cpuPerRequest = (cpuTime(serving) - before) / result.total;
        results.get(delay).push(result);
        console.log(`round ${round}, commit_delay ${delay} µs: ${formatResult(result)}`);
      }
    }
  } finally {
    await target.server.stop();
  }
} finally {
  await pg.stop();
}

const combined = delays.map((delay) => [delay, combine(results.get(delay))]);
const base = combined[0][1];
const rows = combined.map(([delay, r]) => {
  const cpu = r.cpuPerRequest === undefined ? '–' : number(r.cpuPerRequest);
  return `| ${delay} | ${number(r.rps)} (${number(r.min)}–${number(r.max)}) | ${ms(r.p50)} | ${ms(r.p99)} | ${ratio(r.rps / base.rps)} | ${cpu} | ${r.failed} | ${percent(r.others)} |`;
});
const args = process.argv.slice(2).join(' ');
const section = `## PostgreSQL commits

Produced by \`pnpm bench:pgcommit${args ? ` ${args}` : ''}\` on ${new Date().toISOString().slice(0, 10)}.
Single inserts (\`POST /api/v1/data/orders\`, one of 100 orders) at ${settings.connections} connections on the
reference server from the build over PostgreSQL ${pg.version} (a throwaway cluster with its default durability,
a pool of ${settings.pool} connections), ${number(settings.documents)} orders seeded, ${settings.rounds} rounds of
${settings.duration} s after ${settings.warmup} s of warm-up, the settings in alternating order, one server
throughout. \`commit_delay\` (µs) is set with \`ALTER SYSTEM\` and a reload between runs; \`commit_siblings\` keeps
its default (5). PostgreSQL already flushes the WAL once for every commit that waits at the same moment, so with
${settings.pool} connections writing, commits are grouped without any setting; \`commit_delay\` only adds a wait for
more of them. CPU per request is the server's and PostgreSQL's CPU time per answered request.

| commit_delay (µs) | req/s (median, range) | p50 ms | p99 ms | × default | CPU per request (µs) | failed | others' CPU |
|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}
`;
console.log(`\n${section}`);
writeSection(root, opts.out, 'PostgreSQL commits', section);
