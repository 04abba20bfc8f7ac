import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedVenv } from '../python-venv.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The pinned packages of the run. */
export const REQUIREMENTS = join(here, 'requirements.txt');
/** The run's settings: credentials, excluded operations and per-operation expectations, each with its reason. */
export const CONFIG = join(here, 'schemathesis.toml');
/** Hooks that keep generated requests to what the run can judge, each with its reason. */
export const HOOKS = join(here, 'hooks.py');
/**
 * The `st` executable of a virtual environment holding exactly the pinned requirements (see `pinnedVenv`); null
 * when this machine has no `python3` with `venv` (the caller skips, except in CI).
 */
export async function schemathesisExecutable(): Promise<string | null> {
  const venv = await pinnedVenv('schemathesis', REQUIREMENTS);
  return venv && join(venv, 'bin', 'st');
}
