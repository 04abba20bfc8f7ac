/** Runs a server or client script in its own Node process, so it never shares the load generator's event loop. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const running = new Set();
// A crashed or interrupted run must not leave servers listening behind it.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts `script` with `args` and resolves with the JSON object it prints on its first stdout line
 * (servers print `{ url, ... }` when listening; clients print their result and exit).
 */
export async function startChild(script, args = [], { env = {}, nodeOptions = [] } = {}) {
  const child = spawn(process.execPath, [...nodeOptions, script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.add(child);
  const lines = createInterface({ input: child.stdout });
  const exited = once(child, 'exit');
  exited.then(() => running.delete(child));
  const first = new Promise((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line)));
    exited.then(([code]) => reject(new Error(`${script} exited with code ${code} before it was ready`)));
  });
  const info = await first;
  return {
    info,
    pid: child.pid,
    /** Asks the child to stop (SIGTERM lets it close cleanly and write a --cpu-prof profile) and waits for it. */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    /** Waits for a child that exits by itself. */
    exited,
  };
}

/** Starts a child that prints one JSON result and exits; resolves with that result. */
export async function runChild(script, args = [], options = {}) {
  const { info, exited } = await startChild(script, args, options);
  const [code] = await exited;
  if (code !== 0) throw new Error(`${script} exited with code ${code}`);
  return info;
}

/**
 * The Node.js flags the server's bin starts with, from its shebang (`#!/usr/bin/env -S node <flags>`): a benchmark
 * whose figures depend on them (memory) starts the server as `dataplatform-server` and `pnpm start` do.
 */
export function serverNodeFlags(root) {
  const first = readFileSync(join(root, 'packages', 'server', 'dist', 'bin.js'), 'utf8').split('\n', 1)[0];
  const flags = /^#!\/usr\/bin\/env -S node(.*)$/.exec(first)?.[1];
  if (flags === undefined)
    throw new Error(`packages/server/dist/bin.js starts with an unexpected line: ${first}`);
  return flags.trim().split(/\s+/).filter(Boolean);
}
