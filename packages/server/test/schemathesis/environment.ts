import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));

/** The pinned packages of the run. */
export const REQUIREMENTS = join(here, 'requirements.txt');
/** The run's settings: credentials, excluded operations and per-operation expectations, each with its reason. */
export const CONFIG = join(here, 'schemathesis.toml');
/** Hooks that keep generated requests to what the run can judge, each with its reason. */
export const HOOKS = join(here, 'hooks.py');
/** The virtual environment: git-ignored, kept between runs, rebuilt when the requirements change. */
const VENV = join(here, '..', '..', 'node_modules', '.cache', 'schemathesis', 'venv');
const STAMP = join(VENV, 'requirements.sha256');

async function hasPythonVenv(): Promise<boolean> {
  try {
    await run('python3', ['-c', 'import venv, ensurepip']);
    return true;
  } catch {
    return false;
  }
}

/**
 * The `st` executable of a virtual environment holding exactly the pinned requirements: made once with
 * `python3 -m venv` and pip, then reused while the requirements file is unchanged. Null when this machine has no
 * `python3` with `venv` (the caller skips, except in CI).
 */
export async function schemathesisExecutable(): Promise<string | null> {
  const wanted = createHash('sha256').update(readFileSync(REQUIREMENTS)).digest('hex');
  const st = join(VENV, 'bin', 'st');
  if (existsSync(st) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === wanted) return st;
  if (!(await hasPythonVenv())) return null;
  rmSync(VENV, { recursive: true, force: true });
  mkdirSync(dirname(VENV), { recursive: true });
  await run('python3', ['-m', 'venv', VENV]);
  await run(
    join(VENV, 'bin', 'python'),
    ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', '-r', REQUIREMENTS],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  // Written last: an interrupted install leaves no stamp and is redone next time.
  writeFileSync(STAMP, wanted);
  return st;
}
