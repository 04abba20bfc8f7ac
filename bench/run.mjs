/**
 * `pnpm bench`: GET by id and insert on the reference server, a raw node:http ceiling and json-server 0.17, then the
 * SDK against raw undici, on the same data and connections; writes docs/benchmarks.md. Not part of the tests.
 * Options: --connections 50 --duration 10 --warmup 3 --rounds 3 --documents 10000 --out docs/benchmarks.md
 *          --skip-build (use the existing dist/ folders) --profile (CPU profiles of the reference server instead)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runChild, startChild } from './lib/child.mjs';
import { waitForQuiet, watchCpu } from './lib/cpu.mjs';
import { makeOrders, orderId } from './lib/data.mjs';
import { measure } from './lib/load.mjs';
import { summarizeProfile } from './lib/profile.mjs';
import { combine, renderReport } from './lib/report.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    documents: { type: 'string', default: '10000' },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
    'skip-build': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
  },
});
const settings = Object.fromEntries(
  ['connections', 'duration', 'warmup', 'rounds', 'documents'].map((name) => [name, Number(opts[name])]),
);
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
const sdkBuildFailure = opts['skip-build'] ? null : build('@dataplatform/sdk');

const work = mkdtempSync(join(tmpdir(), 'dataplatform-bench-'));
const ordersFile = join(work, 'orders.json');
const orders = makeOrders(settings.documents).map((fields, i) => ({ _id: orderId(i + 1), ...fields }));
writeFileSync(ordersFile, JSON.stringify(orders));
const bodies = orders.slice(0, 100).map(({ _id, ...fields }) => JSON.stringify(fields));
let bodyIndex = 0;

/** Starts a server script over a fresh directory; resolves with `{ info: { url, apiKey? }, pid, stop() }`. */
function startTarget(name, env = {}) {
  return startChild(join(here, 'servers', `${name}.mjs`), [ordersFile, mkdtempSync(join(work, `${name}-`))], {
    env,
  });
}

/** The autocannon request of a scenario: a random seeded id per GET, one of the 100 bodies per insert. */
function requestOf(server, kind) {
  const { url, apiKey } = server.info;
  const base = apiKey ? '/api/v1/data/orders' : '/orders';
  const headers = apiKey ? { 'x-api-key': apiKey } : {};
  if (kind === 'get') {
    const id = () => orderId(1 + Math.floor(Math.random() * settings.documents));
    return { url, method: 'GET', headers, next: () => ({ path: `${base}/${id()}` }) };
  }
  const next = () => ({ body: bodies[bodyIndex++ % bodies.length] });
  return {
    url: url + base,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    next,
  };
}

const share = (value) => (typeof value === 'number' ? `${Math.round(value * 100)} %` : '?');
const format = (r) =>
  `${Math.round(r.rps).toString().padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms` +
  (r.others === undefined ? '' : `  (others used ${share(r.others)} of the CPU)`) +
  (r.failed ? `  ${r.failed} FAILED` : '');

if (opts.profile) {
  // One profiled server per scenario, so that each profile shows one route only.
  for (const kind of ['get', 'insert']) {
    const file = join(work, `reference-${kind}.cpuprofile`);
    const server = await startTarget('reference', { BENCH_CPU_PROFILE: file });
    const result = await measure({
      ...settings,
      ...requestOf(server, kind),
      duration: settings.warmup + settings.duration,
    });
    await server.stop();
    console.log(`reference ${kind}: ${format(result)} (profiled)\n${summarizeProfile(file)}\n`);
  }
  console.log(
    `Profiles kept in ${work}; open them in Chrome DevTools. ${relative(root, opts.out)} not written.`,
  );
  process.exit(0);
}

const { connections, duration, warmup, rounds, documents } = settings;
console.log(
  `${documents} orders, ${connections} connections, ${warmup} s warm-up, ${rounds} rounds of ${duration} s\n`,
);
const servers = {
  reference: await startTarget('reference'),
  referenceNormal: await startTarget('reference', { DATAPLATFORM_SQLITE_SYNCHRONOUS: 'NORMAL' }),
  raw: await startTarget('raw-http'),
  jsonServer: await startTarget('json-server'),
};
const plan = [
  ['reference', 'get'],
  ['raw', 'get'],
  ['jsonServer', 'get'],
  ['reference', 'insert'],
  ['referenceNormal', 'insert'],
  ['raw', 'insert'],
  ['jsonServer', 'insert'],
];
for (const [target, kind] of plan)
  await measure({ ...settings, ...requestOf(servers[target], kind), duration: warmup });

const pids = Object.values(servers).map((server) => server.pid);

/** The SDK or undici GET loops in their own client process; the SDK part may be skipped with a reason. */
async function clientRun(mode) {
  if (mode === 'sdk' && sdkBuildFailure) return { skipped: sdkBuildFailure };
  const { url, apiKey } = servers.reference.info;
  const args = [mode, url, apiKey, documents, connections, duration, warmup].map(String);
  try {
    const watch = watchCpu(pids);
    const result = await runChild(join(here, 'clients', 'get-loop.mjs'), args);
    if (result.skipped) return result;
    if (result.total === 0) return { skipped: `every request failed: ${result.firstError}` };
    return { ...result, others: watch.stop(result.cpuMicroseconds) };
  } catch (error) {
    return { skipped: error.message.split('\n')[0] };
  }
}

// Rounds start on a quiet machine when they can and alternate the order of the targets, so that a burst of other
// work on the machine does not always hit the same target.
const samples = new Map();
const record = (key, result) => samples.set(key, [...(samples.get(key) ?? []), result]);
for (let round = 1; round <= rounds; round++) {
  console.log(`round ${round} (before it, others used ${share(await waitForQuiet(pids))} of the CPU)`);
  const order = round % 2 === 1 ? plan : [...plan].reverse();
  for (const [target, kind] of order) {
    const watch = watchCpu(pids);
    const result = await measure({ ...settings, ...requestOf(servers[target], kind) });
    result.others = watch.stop();
    record(`${target}.${kind}`, result);
    console.log(`  ${`${target} ${kind}`.padEnd(24)} ${format(result)}`);
  }
  for (const mode of round % 2 === 1 ? ['undici', 'sdk'] : ['sdk', 'undici']) {
    const result = await clientRun(mode);
    record(`clients.${mode}`, result);
    console.log(
      `  ${`${mode} (client)`.padEnd(24)} ${result.skipped ? `${mode}: skipped (${result.skipped})` : format(result)}`,
    );
  }
}
for (const server of Object.values(servers)) await server.stop();

const results = {};
for (const [key, list] of samples) {
  const [target, kind] = key.split('.');
  results[target] = { ...results[target], [kind]: combine(list) };
}
const command = process.env.npm_lifecycle_event === 'bench' ? 'pnpm bench' : 'node bench/run.mjs';
const args = process.argv.slice(2).join(' ');
const others = [...samples.values()].flat().flatMap((r) => (typeof r.others === 'number' ? [r.others] : []));
const report = renderReport(results, { ...settings, others, command: args ? `${command} ${args}` : command });
if (results.clients.sdk.skipped) console.log(`\nsdk: skipped (${results.clients.sdk.skipped})`);
console.log(`\n${report.goals}`);
mkdirSync(dirname(resolve(opts.out)), { recursive: true });
writeFileSync(opts.out, report.markdown);
console.log(`\nWrote ${relative(root, resolve(opts.out))}`);
rmSync(work, { recursive: true, force: true });
