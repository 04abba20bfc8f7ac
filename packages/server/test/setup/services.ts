import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Directory of the PostgreSQL server binaries, or null when none is installed. */
export function postgresBinaries(): string | null {
  if (process.env.PG_BIN && existsSync(join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres'))) return bin;
  }
  return null;
}

/** A service process started for the tests, with the address to reach it and a way to stop it. */
export interface TestService {
  url: string;
  stop(): Promise<void>;
}

async function waitFor(
  check: () => boolean,
  what: string,
  child: ChildProcess,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what} did not become ready in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Stops a service started in its own process group. The signal goes to the whole group because `runuser`
 * does not pass it on to the server it started.
 */
function stopper(child: ChildProcess, cleanup: () => void): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGINT');
      await exited;
    }
    cleanup();
  };
}

/**
 * Starts a throwaway PostgreSQL cluster on a free port in a temporary directory. `initdb` refuses to run as
 * root, so as root the cluster is made and run by the `postgres` user.
 */
export async function startPostgres(bin: string): Promise<TestService> {
  const dir = mkdtempSync(join(tmpdir(), 'dataplatform-pg-'));
  const asRoot = process.getuid?.() === 0;
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const run = (command: string, args: string[]) =>
    (asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]) as [
      string,
      string[],
    ];
  const [initCmd, initArgs] = run(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  execFileSync(initCmd, initArgs, { stdio: 'pipe' });
  const port = await freePort();
  const [cmd, args] = run(join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=300',
  ]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let log = '';
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  await waitFor(() => log.includes('ready to accept connections'), 'PostgreSQL', child);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: stopper(child, () => rmSync(dir, { recursive: true, force: true })),
  };
}

/** Starts a throwaway Redis on a free port, without persistence. */
export async function startRedis(): Promise<TestService> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'], detached: true },
  );
  let log = '';
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  await waitFor(() => log.includes('Ready to accept connections'), 'Redis', child);
  return { url: `redis://127.0.0.1:${port}`, stop: stopper(child, () => {}) };
}

/** The stripe-mock binary: on the PATH, or where `go install` puts it; null when neither has it. */
export function stripeMockBinary(): string | null {
  if (hasCommand('stripe-mock')) return 'stripe-mock';
  try {
    const gopath = execFileSync('go', ['env', 'GOPATH'], { encoding: 'utf8' }).trim();
    const bin = join(gopath, 'bin', 'stripe-mock');
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

/**
 * Starts stripe-mock (Stripe's API answered from its OpenAPI fixtures) on a free loopback port. It also opens an
 * HTTPS port, 12112 unless told otherwise, and exits when that is taken (by another run's stripe-mock): the system
 * picks that one too.
 */
export async function startStripeMock(bin: string): Promise<TestService> {
  const port = await freePort();
  const child = spawn(bin, ['-http-addr', `127.0.0.1:${port}`, '-https-addr', '127.0.0.1:'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  const append = (chunk: Buffer) => {
    log += chunk;
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  await waitFor(() => /Listening for HTTP/i.test(log), 'stripe-mock', child);
  return { url: `http://127.0.0.1:${port}`, stop: stopper(child, () => {}) };
}

/** True when a command is on the PATH. */
export function hasCommand(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
