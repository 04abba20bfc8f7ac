/**
 * A throwaway PostgreSQL server for the scale benchmark, started the way packages/server/test/setup/services.ts
 * does (temporary directory, free port, the `postgres` user when root) but with PostgreSQL's normal durability
 * settings: fsync, synchronous_commit and full_page_writes stay on, as in production.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { processTree } from './cpu.mjs';

/** A free TCP port on loopback. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Directory of the newest installed PostgreSQL server binaries ($PG_BIN first), or null. */
export function postgresBinaries() {
  const { PG_BIN } = process.env;
  if (PG_BIN && existsSync(join(PG_BIN, 'initdb'))) return PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  const bin = versions.map((version) => join(root, version, 'bin'));
  return bin.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) ?? null;
}

// Only where to listen is set; durability and memory keep PostgreSQL's defaults (read back into `settings`).
const LISTEN = ['-c', 'listen_addresses=127.0.0.1'];
/** The settings that decide write and read speed, as reported by the running server. */
const REPORTED = ['fsync', 'synchronous_commit', 'full_page_writes', 'wal_level', 'shared_buffers'];

/**
 * Starts PostgreSQL from `bin` in a new temporary directory; resolves with `{ url(database), version, settings,
 * pids(), createDatabase(name), stop() }`. `initdb` refuses to run as root, so as root the cluster is made and run
 * by the `postgres` user.
 */
export async function startPostgres(bin) {
  const dir = mkdtempSync(join(tmpdir(), 'dataplatform-bench-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (command, args) =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const init = run(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  execFileSync(...init, { stdio: 'pipe' });
  const port = await freePort();
  // Its own process group, because runuser does not pass a signal on to the server it started.
  const child = spawn(...run(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', dir, ...LISTEN]), {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stderr.on('data', (chunk) => {
    log += chunk;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      process.kill(-child.pid, 'SIGINT'); // fast shutdown
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // An interrupted benchmark must not leave a server running (and its directory behind).
  const onExit = () => {
    if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', onExit);
  for (let waited = 0; !log.includes('ready to accept connections'); waited += 100) {
    if (child.exitCode !== null || waited > 30_000) {
      await stop();
      throw new Error(`PostgreSQL did not start: ${log.trim().split('\n').at(-1)}`);
    }
    await sleep(100);
  }
  const url = (database) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const admin = postgres(url('postgres'), { max: 1, onnotice: () => {} });
  const [{ server_version: version }] = await admin`SHOW server_version`;
  const settings = {};
  for (const name of REPORTED) settings[name] = (await admin.unsafe(`SHOW ${name}`))[0][name];
  return {
    url,
    version,
    settings,
    /** The server's processes now (the postmaster and its backends). */
    pids: () => processTree(child.pid),
    /** Sets server settings (`ALTER SYSTEM`) and reloads them; each new session uses them. */
    async configure(values) {
      for (const [name, value] of Object.entries(values))
        await admin.unsafe(`ALTER SYSTEM SET ${name} = '${value}'`);
      await admin`SELECT pg_reload_conf()`;
    },
    /** Creates an empty database and returns its address. */
    async createDatabase(name) {
      await admin.unsafe(`CREATE DATABASE ${name}`);
      return url(name);
    },
    async stop() {
      await admin.end({ timeout: 1 });
      process.off('exit', onExit);
      await stop();
    },
  };
}
