/**
 * The PocketBase part of `pnpm bench`: the reference server (SQLite, its default synchronous=FULL) beside
 * PocketBase (its default, synchronous=NORMAL) on the same orders at each size: GET by id, a list page with its
 * total and a single insert, rounds in alternating order; resident memory split into anonymous and file-backed,
 * idle and under the GET and list load; and the time from starting each server to its first answer.
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { waitForQuiet, watchCpu } from './cpu.mjs';
import { measure } from './load.mjs';
import { residentMemory, sampleMemory } from './memory.mjs';
import { firstAnswer, pocketbaseRequestOf, preparePocketBase, startPocketBase } from './pocketbase.mjs';
import { combine, median } from './report.mjs';
import { prepare, requestOf } from './scale-target.mjs';

export const SCENARIOS = ['get', 'list', 'insert'];
const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Spawn to first 200 on /healthz of `dataplatform-server` (dist/bin.js, as `pnpm start` runs it): `times` first
 * starts over an empty data directory (which also makes the development account) and `times` restarts over that
 * directory; resolves with the medians and their ranges in ms. `ready` holds the same from spawn to the first 200
 * on /readyz, the app's own answer (the listening socket answers /healthz before the app is built).
 */
export async function referenceStartTimes({ work, times = 5, checkout = CHECKOUT }) {
  const bin = join(checkout, 'packages', 'server', 'dist', 'bin.js');
  const first = [];
  const again = [];
  const readyFirst = [];
  const readyAgain = [];
  for (let i = 0; i < times; i++) {
    const dir = mkdtempSync(join(work, 'start-'));
    for (const [list, ready] of [
      [first, readyFirst],
      [again, readyAgain],
    ]) {
      const port = await freePort();
      const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATAPLATFORM_DATA_DIR: dir };
      Object.assign(env, { DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' });
      const started = performance.now();
      const child = spawn(process.execPath, [bin], { env, stdio: 'ignore' });
      const exited = once(child, 'exit');
      list.push(await firstAnswer(child, `http://127.0.0.1:${port}/healthz`, started));
      ready.push(await firstAnswer(child, `http://127.0.0.1:${port}/readyz`, started));
      child.kill('SIGTERM');
      await exited;
    }
  }
  const summary = (list) => ({ median: median(list), min: Math.min(...list), max: Math.max(...list) });
  return {
    first: summary(first),
    restart: summary(again),
    ready: { first: summary(readyFirst), restart: summary(readyAgain) },
  };
}

/** PocketBase's own start: `serve` to the first 200 on /api/health, over a fresh directory and again over it. */
export async function pocketbaseStartTimes(binary, { work, times = 5 }) {
  const first = [];
  const again = [];
  for (let i = 0; i < times; i++) {
    const dir = join(mkdtempSync(join(work, 'pocketbase-start-')), 'pb_data');
    for (const list of [first, again]) {
      const pb = await startPocketBase(binary, dir);
      list.push(pb.startMs);
      await pb.stop();
    }
  }
  const summary = (list) => ({ median: median(list), min: Math.min(...list), max: Math.max(...list) });
  return { first: summary(first), restart: summary(again) };
}

/** Resident memory of a quiet server: a few readings over `seconds`, the last one kept. */
async function idleMemory(pid, seconds = 2) {
  await sleep(seconds * 1000);
  return residentMemory(pid);
}

/**
 * Runs the part at each size in `sizes`; resolves with `{ sizes: { [size]: { reference, pocketbase, before?,
 * ratios } }, others }`, each target holding per scenario its combined figures and its memory (idle, under load,
 * after). With `before` (another checkout, built), that checkout's reference server is measured too.
 */
export async function runPocketBase(options) {
  const { binary, sizes, connections, duration, warmup, rounds, work, log, format, before } = options;
  const TARGETS = ['reference', 'pocketbase', ...(before ? ['before'] : [])];
  const results = { sizes: {} };
  const others = [];
  for (const size of sizes) {
    log(`preparing ${size} orders`);
    const targets = {
      reference: await prepare('sqlite', size, { work, log }),
      pocketbase: await preparePocketBase(binary, size, { work, log }),
    };
    if (before) {
      const script = join(before, 'bench', 'servers', 'reference.mjs');
      targets.before = await prepare('sqlite', size, { work, log, script });
    }
    try {
      const pids = () => TARGETS.map((name) => targets[name].server.pid);
      const request = (name, kind) =>
        name === 'pocketbase' ? pocketbaseRequestOf(targets[name], kind) : requestOf(targets[name], kind);
      const memory = {};
      for (const name of TARGETS) memory[name] = { idle: await idleMemory(targets[name].server.pid) };
      const peaks = Object.fromEntries(TARGETS.map((name) => [name, []]));
      const run = async (name, kind, seconds, sampled) => {
        const watch = watchCpu(pids());
        const sampler = sampled ? sampleMemory(targets[name].server.pid) : null;
        const result = await measure({ connections, duration: seconds, ...request(name, kind) });
        result.others = watch.stop();
        if (sampler) peaks[name].push(await sampler.stop());
        if (kind === 'insert') await targets[name].trim();
        return result;
      };
      for (const kind of SCENARIOS) for (const name of TARGETS) await run(name, kind, warmup, false);
      const samples = new Map();
      for (let round = 1; round <= rounds; round++) {
        log(
          `${size} orders, round ${round} (before it, others used ${formatShare(await waitForQuiet(pids()))})`,
        );
        for (const kind of round % 2 ? SCENARIOS : [...SCENARIOS].reverse()) {
          for (const name of round % 2 ? TARGETS : [...TARGETS].reverse()) {
            // Every process counts here, the servers too: one still working off the requests of the previous run
            // (PocketBase counting a million rows per list page for a while after the load stopped) would slow
            // the next target down without showing as other processes' CPU.
            await waitForQuiet([], { patience: 15_000 });
            const result = await run(name, kind, duration, kind !== 'insert');
            const key = `${name} ${kind}`;
            samples.set(key, [...(samples.get(key) ?? []), result]);
            others.push(result.others);
            log(`  ${`${name} ${kind}`.padEnd(20)} ${format(result)}`);
          }
        }
      }
      for (const name of TARGETS) {
        const list = peaks[name];
        memory[name].load = {
          anon: Math.max(...list.map((m) => m.anon)),
          file: Math.max(...list.map((m) => m.file)),
        };
        memory[name].after = await idleMemory(targets[name].server.pid);
      }
      const figures = {};
      for (const name of TARGETS) {
        figures[name] = { memory: memory[name], seedSeconds: targets[name].seedSeconds };
        for (const kind of SCENARIOS) figures[name][kind] = combine(samples.get(`${name} ${kind}`));
      }
      // Ours ÷ PocketBase per round (the two ran back to back), then the median and range over the rounds.
      figures.ratios = {};
      for (const kind of SCENARIOS) {
        const [ours, theirs] = ['reference', 'pocketbase'].map((name) => samples.get(`${name} ${kind}`));
        const perRound = ours.map((r, i) => r.rps / theirs[i].rps);
        figures.ratios[kind] = {
          median: median(perRound),
          min: Math.min(...perRound),
          max: Math.max(...perRound),
          unanswered: theirs.filter((r) => r.total === 0).length,
        };
      }
      results.sizes[size] = figures;
    } finally {
      for (const target of Object.values(targets)) await target.server.stop();
    }
  }
  results.others = others.filter((share) => typeof share === 'number');
  return results;
}

const formatShare = (share) => (typeof share === 'number' ? `${Math.round(share * 100)} %` : '?');
