import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));

async function hasPythonVenv(): Promise<boolean> {
  try {
    await run('python3', ['-c', 'import venv, ensurepip']);
    return true;
  } catch {
    return false;
  }
}

/**
 * The directory of a virtual environment `name` holding exactly the pinned packages of `requirements`: made once
 * with `python3 -m venv` and pip under `node_modules/.cache/<name>/venv` (git-ignored), then reused while the
 * requirements file is unchanged. Null when this machine has no `python3` with `venv` (the caller skips, except
 * in CI).
 */
export async function pinnedVenv(name: string, requirements: string): Promise<string | null> {
  const venv = join(here, '..', 'node_modules', '.cache', name, 'venv');
  const stamp = join(venv, 'requirements.sha256');
  const wanted = createHash('sha256').update(readFileSync(requirements)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return venv;
  if (!(await hasPythonVenv())) return null;
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(dirname(venv), { recursive: true });
  await run('python3', ['-m', 'venv', venv]);
  await run(
    join(venv, 'bin', 'python'),
    ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', '-r', requirements],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  // Written last: an interrupted install leaves no stamp and is redone next time.
  writeFileSync(stamp, wanted);
  return venv;
}
