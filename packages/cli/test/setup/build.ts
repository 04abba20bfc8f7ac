import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Builds dist/bin.js once per test run: the end-to-end suites run the binary a user would install. */
export default function buildCli(): void {
  const cwd = fileURLToPath(new URL('../..', import.meta.url));
  const built = spawnSync('node_modules/.bin/tsup', ['--silent'], { cwd, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building the CLI failed:\n${built.stdout}\n${built.stderr}`);
}
