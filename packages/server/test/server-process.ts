import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** How the server is run: from the sources through tsx, or the built `dist/bin.js` a user would start. */
const COMMANDS = {
  source: ['--conditions=@dataplatform/source', '--import', 'tsx', 'src/bin.ts'],
  built: ['dist/bin.js'],
};

/**
 * The reference server as its own Node process; ready once its credentials are written, or, with `credentials:
 * false` (a further instance on a database that already has its development account), once it answers /readyz.
 */
export async function startProcess(
  env: Record<string, string>,
  from: keyof typeof COMMANDS = 'source',
  { credentials = true }: { credentials?: boolean } = {},
): Promise<{ child: ChildProcess; url: string }> {
  if (from === 'built' && !existsSync(join(PACKAGE_DIR, 'dist', 'bin.js')))
    throw new Error('packages/server/dist/bin.js is missing: run `pnpm build` first (`pnpm test` does)');
  const child = spawn(process.execPath, COMMANDS[from], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('server did not start in 30 s');
    const up = await fetch(`${url}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    // The development account is written just after the server starts listening.
    if (up && (!credentials || existsSync(join(env.DATAPLATFORM_DATA_DIR!, 'dev-credentials.json'))))
      return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
