import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Python package's folder. */
export const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The pinned packages of the tests, the type check and the build. */
const REQUIREMENTS = join(PACKAGE, 'requirements-dev.txt');
/** The virtual environment: git-ignored, kept between runs, rebuilt when the requirements change. */
const VENV = join(PACKAGE, 'node_modules', '.cache', 'sdk-python', 'venv');
const STAMP = join(VENV, 'requirements.sha256');

async function hasPythonVenv(): Promise<boolean> {
  try {
    await run('python3', ['-c', 'import venv, ensurepip, sys; assert sys.version_info >= (3, 9)']);
    return true;
  } catch {
    return false;
  }
}

/**
 * The `python` of a virtual environment holding exactly the pinned requirements: made once with `python3 -m venv`
 * and pip (never touching the system Python), then reused while the requirements file is unchanged. Null when this
 * machine has no `python3` with `venv` (the caller skips, except in CI).
 */
export async function pythonExecutable(): Promise<string | null> {
  const wanted = createHash('sha256').update(readFileSync(REQUIREMENTS)).digest('hex');
  const python = join(VENV, 'bin', 'python');
  if (existsSync(python) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === wanted) return python;
  if (!(await hasPythonVenv())) return null;
  rmSync(VENV, { recursive: true, force: true });
  mkdirSync(dirname(VENV), { recursive: true });
  await run('python3', ['-m', 'venv', VENV]);
  await run(
    python,
    ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', '-r', REQUIREMENTS],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  // Written last: an interrupted install leaves no stamp and is redone next time.
  writeFileSync(STAMP, wanted);
  return python;
}
