/** The Python client's virtual environment, as its test setup makes it (packages/sdk-python/test/python-env.ts). */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The `python` of the environment of packages/sdk-python/requirements-dev.txt, made when missing or stale. */
export function pythonClientEnvironment(root) {
  const pkg = join(root, 'packages', 'sdk-python');
  const requirements = join(pkg, 'requirements-dev.txt');
  const venv = join(pkg, 'node_modules', '.cache', 'sdk-python', 'venv');
  const stamp = join(venv, 'requirements.sha256');
  const python = join(venv, 'bin', 'python');
  const wanted = createHash('sha256').update(readFileSync(requirements)).digest('hex');
  if (existsSync(python) && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return python;
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(dirname(venv), { recursive: true });
  execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
  execFileSync(
    python,
    ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--quiet', '-r', requirements],
    { stdio: 'inherit' },
  );
  writeFileSync(stamp, wanted);
  return python;
}
