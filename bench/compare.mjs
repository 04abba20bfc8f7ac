/**
 * `pnpm bench:compare --before REV`: the reference server of this checkout beside the one of an earlier commit, in
 * one run, with a raw node:http ceiling, so that a change to the house shows what it did to GET by id and insert.
 * The earlier commit is checked out into a temporary git worktree, installed and built there; both servers load the
 * same orders on SQLite and are measured in rounds whose order alternates. Writes its section of docs/benchmarks.md.
 * Options: --before REV (required) --connections 50 --duration 5 --warmup 2 --rounds 4 --documents 10000
 *          --skip-build --out docs/benchmarks.md
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startChild } from './lib/child.mjs';
import { waitForQuiet, watchCpu } from './lib/cpu.mjs';
import { makeOrders, orderId } from './lib/data.mjs';
import { measure } from './lib/load.mjs';
import { combine, formatResult, ms, number, percent, ratio } from './lib/report.mjs';
import { buildServer, checkoutRevision, writeSection } from './lib/script.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: opts } = parseArgs({
  options: {
    before: { type: 'string' },
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '4' },
    documents: { type: 'string', default: '10000' },
    'skip-build': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
  },
});
if (!opts.before) throw new Error('--before REV names the commit to compare with, e.g. --before main~5');
const settings = Object.fromEntries(
  ['connections', 'duration', 'warmup', 'rounds', 'documents'].map((name) => [name, Number(opts[name])]),
);
process.on('SIGINT', () => process.exit(130));

const work = mkdtempSync(join(tmpdir(), 'dataplatform-bench-compare-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const { dir: earlier, revision: before } = checkoutRevision(root, work, opts.before);
if (!opts['skip-build']) buildServer(root);

const ordersFile = join(work, 'orders.json');
const orders = makeOrders(settings.documents).map((fields, i) => ({ _id: orderId(i + 1), ...fields }));
writeFileSync(ordersFile, JSON.stringify(orders));
const bodies = orders.slice(0, 100).map(({ _id, ...fields }) => JSON.stringify(fields));

// Each server is started by its own checkout's script, so each runs the code of its commit.
const start = (checkout, name, script) =>
  startChild(join(checkout, 'bench', 'servers', script), [ordersFile, mkdtempSync(join(work, `${name}-`))], {
    env: { DATABASE_URL: '' },
  });
const servers = {
  before: await start(earlier, 'before', 'reference.mjs'),
  after: await start(root, 'after', 'reference.mjs'),
  raw: await start(root, 'raw', 'raw-http.mjs'),
};

function requestOf({ info }, kind) {
  const base = info.apiKey ? '/api/v1/data/orders' : '/orders';
  const headers = info.apiKey ? { 'x-api-key': info.apiKey } : {};
  if (kind === 'get') {
    const id = () => orderId(1 + Math.floor(Math.random() * settings.documents));
    return { url: info.url, method: 'GET', headers, next: () => ({ path: `${base}/${id()}` }) };
  }
  let at = 0;
  return {
    url: info.url + base,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    next: () => ({ body: bodies[at++ % bodies.length] }),
  };
}

const plan = [
  ['before', 'get'],
  ['after', 'get'],
  ['raw', 'get'],
  ['before', 'insert'],
  ['after', 'insert'],
];
const load = (target, kind, duration) =>
  measure({ ...settings, ...requestOf(servers[target], kind), duration });
for (const [target, kind] of plan) await load(target, kind, settings.warmup);
const pids = Object.values(servers).map((server) => server.pid);
const samples = new Map();
for (let round = 1; round <= settings.rounds; round++) {
  console.log(`round ${round} (before it, others used ${percent(await waitForQuiet(pids))} of the CPU)`);
  for (const [target, kind] of round % 2 === 1 ? plan : [...plan].reverse()) {
    const watch = watchCpu(pids);
    const result = await load(target, kind, settings.duration);
    result.others = watch.stop();
    samples.set(`${target} ${kind}`, [...(samples.get(`${target} ${kind}`) ?? []), result]);
    console.log(`  ${`${target} ${kind}`.padEnd(14)} ${formatResult(result)}`);
  }
}
for (const server of Object.values(servers)) await server.stop();

const result = (key) => combine(samples.get(key));
const rawGet = result('raw get');
const row = (label, kind, target) => {
  const r = result(`${target} ${kind}`);
  const toRaw = kind === 'get' ? ratio(r.rps / rawGet.rps) : '–';
  return `| ${label} | ${number(r.rps)} (${number(r.min)}–${number(r.max)}) | ${ms(r.p50)} | ${ms(r.p99)} | ${toRaw} | ${r.failed} |`;
};
const change = (kind) => ratio(result(`after ${kind}`).rps / result(`before ${kind}`).rps);
const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
  cwd: root,
  encoding: 'utf8',
}).stdout.trim();
const args = process.argv.slice(2).join(' ');
const others = [...samples.values()]
  .flat()
  .map((r) => r.others)
  .filter((v) => typeof v === 'number');
const section = `## Before and after a change

Produced by \`pnpm bench:compare ${args}\` on ${new Date().toISOString().slice(0, 10)}: the reference server of
\`${head}\` (after) beside the one of \`${before}\` (before), each built from its own checkout, on SQLite with the
same ${number(settings.documents)} orders, ${settings.connections} connections, ${settings.rounds} rounds of
${settings.duration} s in alternating order (medians, range of rates in brackets). Other processes used a median of
${percent(others.sort((a, b) => a - b)[Math.floor(others.length / 2)])} of the CPU while rounds ran.

| scenario | req/s | p50 ms | p99 ms | × raw node:http | failed |
| --- | ---: | ---: | ---: | ---: | ---: |
${row('GET by id, before', 'get', 'before')}
${row('GET by id, after', 'get', 'after')}
${row('GET by id, raw node:http', 'get', 'raw')}
${row('insert, before', 'insert', 'before')}
${row('insert, after', 'insert', 'after')}

After ÷ before: GET by id ${change('get')}, insert ${change('insert')}.
`;
console.log(`\n${section}`);
writeSection(root, opts.out, 'Before and after a change', section);
