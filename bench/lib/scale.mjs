/**
 * The scale part of `pnpm bench`: GET by id, a list page with `total`, and insert, each on a collection of every
 * size in `sizes` (10,000 and 1,000,000), on SQLite and on PostgreSQL. One reference server per engine and size,
 * each over its own fresh database, all running at once so that the sizes can be measured back to back.
 */
import { cpuTime, waitForQuiet, watchCpu } from './cpu.mjs';
import { measure } from './load.mjs';
import { postgresBinaries, startPostgres } from './postgres.mjs';
import { combine, median } from './report.mjs';
import { prepare, requestOf } from './scale-target.mjs';

/** The scenarios, in the order they are measured. */
export const SCENARIOS = ['get', 'list', 'insert'];

/**
 * Measures every scenario on every prepared server; resolves with a map from `"engine size kind"` to one result
 * per round. The sizes of one engine and scenario are measured back to back after a wait for a quiet machine, so
 * that their ratio in each round sees the same conditions; the order is reversed every other round, so that
 * neither size always goes first.
 */
async function measureRounds(prepared, { connections, duration, warmup, rounds, pids, log, format }) {
  const run = async (target, kind, seconds) => {
    const watch = watchCpu(pids());
    // The server's and the database's CPU per request does not depend on how busy the machine is, unlike latency.
    const serving = target.pids();
    const before = cpuTime(serving);
    const result = await measure({ connections, duration: seconds, ...requestOf(target, kind) });
    result.others = watch.stop();
    if (before !== null) result.cpuPerRequest = (cpuTime(serving) - before) / result.total;
    if (kind === 'insert') await target.trim();
    return result;
  };
  const engines = [...new Set(prepared.map((target) => target.engine))];
  const groups = engines.flatMap((engine) =>
    SCENARIOS.map((kind) => ({ kind, targets: prepared.filter((target) => target.engine === engine) })),
  );
  for (const { kind, targets } of groups) for (const target of targets) await run(target, kind, warmup);
  const samples = new Map();
  for (let round = 1; round <= rounds; round++) {
    log(`scale round ${round}`);
    const ordered = round % 2 ? groups : [...groups].reverse();
    for (const { kind, targets } of ordered) {
      await waitForQuiet(pids(), { patience: 10_000 });
      for (const target of round % 2 ? targets : [...targets].reverse()) {
        const result = await run(target, kind, duration);
        const key = `${target.engine} ${target.size} ${kind}`;
        samples.set(key, [...(samples.get(key) ?? []), result]);
        log(`  ${key.padEnd(24)} ${format(result)}`);
      }
    }
  }
  return samples;
}

/**
 * One engine's figures: per size, each scenario combined over the rounds; per scenario, the growth from the
 * smallest to the largest size as the median and range of the rounds' own ratios (p50, p99, time per request from
 * the request rate, and CPU per request), plus the failed requests of both sizes.
 */
function summarize(samples, engine, prepared) {
  const targets = prepared.filter((target) => target.engine === engine);
  const sizes = {};
  for (const { size, seedSeconds, bytes } of targets) {
    const figures = SCENARIOS.map((kind) => [kind, combine(samples.get(`${engine} ${size} ${kind}`))]);
    sizes[size] = { ...Object.fromEntries(figures), seedSeconds, bytes };
  }
  const [small, large] = [targets[0].size, targets.at(-1).size];
  const growth = {};
  for (const kind of SCENARIOS) {
    const [a, b] = [samples.get(`${engine} ${small} ${kind}`), samples.get(`${engine} ${large} ${kind}`)];
    const perRound = (ratioOf) => a.map((_, round) => ratioOf(a[round], b[round]));
    const summary = (ratios) => ({
      median: median(ratios),
      min: Math.min(...ratios),
      max: Math.max(...ratios),
    });
    growth[kind] = {
      p50: summary(perRound((x, y) => y.p50 / x.p50)),
      p99: summary(perRound((x, y) => y.p99 / x.p99)),
      perRequest: summary(perRound((x, y) => x.rps / y.rps)),
      cpuPerRequest: summary(perRound((x, y) => y.cpuPerRequest / x.cpuPerRequest)),
      failed: [...a, ...b].reduce((sum, r) => sum + r.failed, 0),
    };
  }
  return { sizes, growth };
}

/**
 * Runs the scale part; resolves with `{ engines, postgres, others }`: per engine `{ sizes, growth }` (see
 * summarize) or `{ skipped }`, PostgreSQL's version and settings, and the others' CPU share of every measurement.
 */
export async function runScale(options) {
  const { engines, log } = options;
  const sizes = [...options.sizes].sort((a, b) => a - b);
  const bin = engines.includes('postgres') ? postgresBinaries() : null;
  const pg = bin ? await startPostgres(bin) : null;
  const prepared = [];
  const results = { engines: {}, postgres: pg && { version: pg.version, settings: pg.settings } };
  try {
    for (const engine of engines) {
      if (engine === 'postgres' && !pg) {
        results.engines.postgres = {
          skipped: 'no PostgreSQL server binaries (install postgresql or set PG_BIN)',
        };
        continue;
      }
      log(`preparing ${engine}`);
      for (const size of sizes) {
        const target = await prepare(engine, size, { ...options, pg });
        // PostgreSQL's own processes serve whichever server is being measured; the others are idle meanwhile.
        const serving = () => [target.server.pid, ...(engine === 'postgres' ? pg.pids() : [])];
        prepared.push({ engine, ...target, pids: serving });
      }
    }
    const pids = () => [...prepared.map((target) => target.server.pid), ...(pg?.pids() ?? [])];
    const samples = await measureRounds(prepared, { ...options, pids });
    for (const engine of engines) results.engines[engine] ??= summarize(samples, engine, prepared);
    // Every measurement's share, not the per-figure medians: a busy round must show in the page.
    results.others = [...samples.values()]
      .flat()
      .flatMap((r) => (typeof r.others === 'number' ? [r.others] : []));
    return results;
  } finally {
    for (const { server } of prepared) await server.stop();
    await pg?.stop();
  }
}
