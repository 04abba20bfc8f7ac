import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The reference server as its own Node process, straight from the sources; ready once its credentials are written. */
export async function startProcess(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=@dataplatform/source', '--import', 'tsx', 'src/bin.ts'],
    { cwd: PACKAGE_DIR, env: { ...process.env, ...env, LOG_LEVEL: 'warn' }, stdio: 'ignore' },
  );
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
    if (up && existsSync(join(env.DATAPLATFORM_DATA_DIR!, 'dev-credentials.json'))) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
