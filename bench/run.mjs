/**
 * `pnpm bench`: every benchmark, each a section of docs/benchmarks.md. Not part of the tests. Two parts run here:
 * - throughput: GET by id and insert on the reference server (SQLite), a raw node:http ceiling and json-server 0.17,
 *   then the SDK against raw undici, on the same data and connections;
 * - scale: GET by id, a list page with `total`, and insert on collections of 10,000 and 1,000,000 documents, on
 *   SQLite and on PostgreSQL (a throwaway server from /usr/lib/postgresql or $PG_BIN).
 * Options: --connections 50 --duration 10 --warmup 3 --rounds 3 --documents 10000 --out docs/benchmarks.md
 *          --scale-sizes 10000,1000000 --scale-duration 5 --scale-warmup 2 --scale-rounds 3
 *          --scale-only / --skip-scale (run one part; the other part's section of the page is kept as it is)
 *          --skip-build (use the existing dist/ folders) --profile (CPU profiles of the reference server instead)
 *          --skip-delivery --skip-create --skip-batch --skip-webhooks --skip-cli --skip-upload --skip-auth --skip-clusters
 *          --skip-pgpool --skip-pocketbase: leave out one of the parts that write their own section
 *          (bench/delivery.mjs, webhook-create.mjs, batch.mjs, webhooks.mjs, cli.mjs, upload.mjs, auth.mjs, cluster-checks.mjs,
 *          pg-pool.mjs, pocketbase.mjs); unless --scale-only, they run in that order after the two parts above
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { joinPage, splitPage } from './lib/page.mjs';
import { formatResult, renderReport } from './lib/report.mjs';
import { runScale } from './lib/scale.mjs';
import { renderScale } from './lib/scale-report.mjs';
import { profileThroughput, runThroughput } from './lib/throughput.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    documents: { type: 'string', default: '10000' },
    'scale-sizes': { type: 'string', default: '10000,1000000' },
    'scale-duration': { type: 'string', default: '5' },
    'scale-warmup': { type: 'string', default: '2' },
    'scale-rounds': { type: 'string', default: '3' },
    'scale-only': { type: 'boolean', default: false },
    'skip-scale': { type: 'boolean', default: false },
    'skip-batch': { type: 'boolean', default: false },
    'skip-webhooks': { type: 'boolean', default: false },
    'skip-cli': { type: 'boolean', default: false },
    'skip-upload': { type: 'boolean', default: false },
    'skip-delivery': { type: 'boolean', default: false },
    'skip-create': { type: 'boolean', default: false },
    'skip-auth': { type: 'boolean', default: false },
    'skip-clusters': { type: 'boolean', default: false },
    'skip-pgpool': { type: 'boolean', default: false },
    'skip-pocketbase': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
    'skip-build': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
  },
});
const settings = Object.fromEntries(
  ['connections', 'duration', 'warmup', 'rounds', 'documents'].map((name) => [name, Number(opts[name])]),
);
const scaleSettings = {
  sizes: opts['scale-sizes'].split(',').map(Number),
  connections: settings.connections,
  duration: Number(opts['scale-duration']),
  warmup: Number(opts['scale-warmup']),
  rounds: Number(opts['scale-rounds']),
};
if (opts['scale-only'] && opts['skip-scale'])
  throw new Error('--scale-only and --skip-scale exclude each other');
if (scaleSettings.sizes.some((size) => !Number.isInteger(size) || size < 100))
  throw new Error('--scale-sizes takes whole numbers of at least 100, e.g. 10000,1000000');
process.on('SIGINT', () => process.exit(130));

/** Runs a package build; returns null on success, else a one-line reason. */
function build(name) {
  const result = spawnSync('pnpm', ['--filter', name, 'run', 'build'], { cwd: root, encoding: 'utf8' });
  if (result.status === 0) return null;
  const output = `${result.stdout}\n${result.stderr}`.trim().split('\n');
  return `\`pnpm --filter ${name} build\` failed: ${output.findLast((line) => /error/i.test(line)) ?? output.at(-1)}`;
}

// Only what the benchmark loads: a broken package elsewhere in the workspace must not stop it.
const buildFailure = opts['skip-build']
  ? null
  : (build('@dataplatform/contract') ?? build('@dataplatform/server'));
if (buildFailure) throw new Error(buildFailure);
const runsThroughput = !opts['scale-only'];
const sdkBuildFailure = opts['skip-build'] || !runsThroughput ? null : build('@dataplatform/sdk');

const work = mkdtempSync(join(tmpdir(), 'dataplatform-bench-'));
// The scale part's databases take a gigabyte or two: never leave them behind, even after a failure.
if (!opts.profile) process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const log = (line) => console.log(line);
if (opts.profile) {
  await profileThroughput({ settings, work, log });
  log(`Profiles kept in ${work}; open them in Chrome DevTools. ${relative(root, opts.out)} not written.`);
  process.exit(0);
}

const command = process.env.npm_lifecycle_event === 'bench' ? 'pnpm bench' : 'node bench/run.mjs';
const args = process.argv.slice(2).join(' ');
const produced = {
  command: args ? `${command} ${args}` : command,
  date: new Date().toISOString().slice(0, 10),
};
const out = resolve(opts.out);

let throughputPage;
if (runsThroughput) {
  const { results, others } = await runThroughput({ settings, work, sdkBuildFailure, log });
  const report = renderReport(results, { ...settings, others, command: produced.command });
  if (results.clients.sdk.skipped) log(`\nsdk: skipped (${results.clients.sdk.skipped})`);
  log(`\n${report.goals}\n`);
  throughputPage = report.markdown;
}

let scalePage;
if (!opts['skip-scale']) {
  const engines = ['sqlite', 'postgres'];
  const results = await runScale({ ...scaleSettings, engines, work, log, format: formatResult });
  const report = renderScale(results, { ...scaleSettings, ...produced });
  log(`\n${report.goals}`);
  scalePage = report.markdown;
}

mkdirSync(dirname(out), { recursive: true });
// Read only now: another script (pnpm bench:batch) may have added its section while this one ran.
const kept = splitPage(existsSync(out) ? readFileSync(out, 'utf8') : '');
writeFileSync(
  out,
  joinPage({ ...kept, throughput: throughputPage ?? kept.throughput, scale: scalePage ?? kept.scale }),
);
log(`\nWrote ${relative(root, out)}`);

// The parts below each write their own section of the page, in this order, after the two parts above are on it.
// `buildsOwn`: the part builds a package of its own (unless told not to); the others use what was built above.
const separateParts = [
  { flag: 'skip-delivery', script: 'delivery.mjs', name: 'webhook delivery' },
  { flag: 'skip-create', script: 'webhook-create.mjs', name: 'webhook creation' },
  { flag: 'skip-batch', script: 'batch.mjs', name: 'batch' },
  { flag: 'skip-webhooks', script: 'webhooks.mjs', name: 'webhook verification', buildsOwn: true },
  { flag: 'skip-cli', script: 'cli.mjs', name: 'CLI start-up', buildsOwn: true },
  // `dp upload` of a million documents: it needs the CLI, which the CLI part has just built unless skipped.
  { flag: 'skip-upload', script: 'upload.mjs', name: 'upload', buildsOwn: true, builtBy: 'skip-cli' },
  { flag: 'skip-auth', script: 'auth.mjs', name: 'key-authentication' },
  { flag: 'skip-clusters', script: 'cluster-checks.mjs', name: 'cluster-checks' },
  { flag: 'skip-pgpool', script: 'pg-pool.mjs', name: 'PostgreSQL pool' },
  // PocketBase beside the reference server: requests, memory and start (built from the Go module proxy once).
  { flag: 'skip-pocketbase', script: 'pocketbase.mjs', name: 'PocketBase' },
];
if (!opts['scale-only']) {
  for (const part of separateParts) {
    if (opts[part.flag]) continue;
    const built =
      opts['skip-build'] || !part.buildsOwn || (part.builtBy !== undefined && !opts[part.builtBy]);
    const partArgs = [join(root, 'bench', part.script), '--out', out, ...(built ? ['--skip-build'] : [])];
    const result = spawnSync(process.execPath, partArgs, { stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`the ${part.name} part (bench/${part.script}) failed`);
  }
}
