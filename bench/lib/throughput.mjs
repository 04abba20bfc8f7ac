/**
 * The throughput part of `pnpm bench`: GET by id and insert on the reference server (SQLite), a raw node:http
 * ceiling and json-server 0.17, then the SDK against raw undici, on the same data and connections.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChild, startChild } from './child.mjs';
import { waitForQuiet, watchCpu } from './cpu.mjs';
import { makeOrders, orderId } from './data.mjs';
import { measure } from './load.mjs';
import { summarizeProfile } from './profile.mjs';
import { combine, formatResult, percent } from './report.mjs';

const bench = fileURLToPath(new URL('..', import.meta.url));

/** The orders file every target loads, and the 100 insert bodies; written into `work`. */
function prepareData(work, documents) {
  const ordersFile = join(work, 'orders.json');
  const orders = makeOrders(documents).map((fields, i) => ({ _id: orderId(i + 1), ...fields }));
  writeFileSync(ordersFile, JSON.stringify(orders));
  return { ordersFile, bodies: orders.slice(0, 100).map(({ _id, ...fields }) => JSON.stringify(fields)) };
}

/** Starts a server script over a fresh directory; resolves with `{ info: { url, apiKey? }, pid, stop() }`. */
function startTarget(work, ordersFile, name, env = {}) {
  const script = join(bench, 'servers', `${name}.mjs`);
  // An empty DATABASE_URL keeps the reference server on SQLite whatever the caller's shell holds.
  return startChild(script, [ordersFile, mkdtempSync(join(work, `${name}-`))], {
    env: { DATABASE_URL: '', ...env },
  });
}

/** The autocannon request of a scenario: a random seeded id per GET, one of the 100 bodies per insert. */
function requestOf(server, kind, { documents, bodies }) {
  const { url, apiKey } = server.info;
  const base = apiKey ? '/api/v1/data/orders' : '/orders';
  const headers = apiKey ? { 'x-api-key': apiKey } : {};
  if (kind === 'get') {
    const id = () => orderId(1 + Math.floor(Math.random() * documents));
    return { url, method: 'GET', headers, next: () => ({ path: `${base}/${id()}` }) };
  }
  let bodyIndex = 0;
  const next = () => ({ body: bodies[bodyIndex++ % bodies.length] });
  return {
    url: url + base,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    next,
  };
}

/** One profiled reference server per scenario, so that each profile shows one route only; prints summaries. */
export async function profileThroughput({ settings, work, log }) {
  const data = { ...prepareData(work, settings.documents), documents: settings.documents };
  for (const kind of ['get', 'insert']) {
    const file = join(work, `reference-${kind}.cpuprofile`);
    const server = await startTarget(work, data.ordersFile, 'reference', { BENCH_CPU_PROFILE: file });
    const duration = settings.warmup + settings.duration;
    const result = await measure({ ...settings, ...requestOf(server, kind, data), duration });
    await server.stop();
    log(`reference ${kind}: ${formatResult(result)} (profiled)\n${summarizeProfile(file)}\n`);
  }
}

/** Runs the throughput part; resolves with `{ results, others }` for renderReport. */
export async function runThroughput({ settings, work, sdkBuildFailure, log }) {
  const { connections, duration, warmup, rounds, documents } = settings;
  const data = { ...prepareData(work, documents), documents };
  log(
    `${documents} orders, ${connections} connections, ${warmup} s warm-up, ${rounds} rounds of ${duration} s\n`,
  );
  const start = (name, env) => startTarget(work, data.ordersFile, name, env);
  const servers = {
    reference: await start('reference'),
    referenceNormal: await start('reference', { DATAPLATFORM_SQLITE_SYNCHRONOUS: 'NORMAL' }),
    raw: await start('raw-http'),
    jsonServer: await start('json-server'),
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
  const load = (target, kind, seconds) =>
    measure({ ...settings, ...requestOf(servers[target], kind, data), duration: seconds });
  for (const [target, kind] of plan) await load(target, kind, warmup);
  const pids = Object.values(servers).map((server) => server.pid);

  /** The SDK or undici GET loops in their own client process; the SDK part may be skipped with a reason. */
  async function clientRun(mode) {
    if (mode === 'sdk' && sdkBuildFailure) return { skipped: sdkBuildFailure };
    const { url, apiKey } = servers.reference.info;
    const args = [mode, url, apiKey, documents, connections, duration, warmup].map(String);
    try {
      const watch = watchCpu(pids);
      const result = await runChild(join(bench, 'clients', 'get-loop.mjs'), args);
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
    log(`round ${round} (before it, others used ${percent(await waitForQuiet(pids))} of the CPU)`);
    for (const [target, kind] of round % 2 === 1 ? plan : [...plan].reverse()) {
      const watch = watchCpu(pids);
      const result = await load(target, kind, duration);
      result.others = watch.stop();
      record(`${target}.${kind}`, result);
      log(`  ${`${target} ${kind}`.padEnd(24)} ${formatResult(result)}`);
    }
    for (const mode of round % 2 === 1 ? ['undici', 'sdk'] : ['sdk', 'undici']) {
      const result = await clientRun(mode);
      record(`clients.${mode}`, result);
      const shown = result.skipped ? `${mode}: skipped (${result.skipped})` : formatResult(result);
      log(`  ${`${mode} (client)`.padEnd(24)} ${shown}`);
    }
  }
  for (const server of Object.values(servers)) await server.stop();

  const results = {};
  for (const [key, list] of samples) {
    const [target, kind] = key.split('.');
    results[target] = { ...results[target], [kind]: combine(list) };
  }
  const others = [...samples.values()]
    .flat()
    .flatMap((r) => (typeof r.others === 'number' ? [r.others] : []));
  return { results, others };
}
