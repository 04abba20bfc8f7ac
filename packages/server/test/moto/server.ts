import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedVenv } from '../python-venv.js';

const here = dirname(fileURLToPath(import.meta.url));

/** A port no one listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A running moto server: a local S3 at `endpoint`. */
export interface Moto {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * Starts moto's server (a real S3 implementation, from PyPI's `moto[server]` pinned in requirements.txt) on a free
 * port; null when this machine has no `python3` with `venv`. Any access key is accepted.
 */
export async function startMoto(): Promise<Moto | null> {
  const venv = await pinnedVenv('moto', join(here, 'requirements.txt'));
  if (!venv) return null;
  const port = await freePort();
  const child: ChildProcess = spawn(
    join(venv, 'bin', 'moto_server'),
    ['-H', '127.0.0.1', '-p', String(port)],
    {
      stdio: 'ignore',
    },
  );
  const endpoint = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`moto_server exited with ${code}`))),
  );
  exited.catch(() => {});
  // Ready once it answers; it exits at once when the port was taken meanwhile.
  for (let attempt = 0; ; attempt++) {
    const up = await Promise.race([
      fetch(`${endpoint}/moto-api/`).then(
        () => true,
        () => false,
      ),
      exited,
    ]);
    if (up) break;
    if (attempt > 200) throw new Error('moto_server did not answer');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    endpoint,
    stop: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    },
  };
}
