import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { forEachEngine, signUp } from './helpers.js';
import { CONFIG, HOOKS, schemathesisExecutable } from './schemathesis/environment.js';

/** The run is reproducible: the same seed draws the same requests (docs/testing.md). */
const SEED = Number(process.env.SCHEMATHESIS_SEED ?? 20261125);
/** Test cases per operation in the fuzzing phase; the examples and coverage phases add their own. */
const MAX_EXAMPLES = Number(process.env.SCHEMATHESIS_MAX_EXAMPLES ?? 10);
const RUN_TIMEOUT_MS = 10 * 60_000;
/**
 * Every check schemathesis has, named one by one: `--checks all` would also turn on the response-time limit (10 s),
 * which measures the machine rather than the API (a failed sign-in is slowed down on purpose).
 */
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
  'positive_data_acceptance',
  'missing_required_header',
  'unsupported_method',
  'allow_header_conformance',
  'use_after_free',
  'ensure_resource_availability',
  'ignored_auth',
  'object_level_authorization',
].join(',');

let st: string | null = null;

beforeAll(async () => {
  st = await schemathesisExecutable();
  if (st === null) {
    if (process.env.CI)
      throw new Error('python3 with venv is missing; .ci/run installs the python3-venv package');
    console.warn(
      '\n⚠ python3 with venv not found: the schemathesis run is skipped (install python3-venv).\n',
    );
  }
}, RUN_TIMEOUT_MS);

/** Runs `st run` against the server, without blocking the event loop the server answers on. */
function schemathesis(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'dataplatform-schemathesis-'));
  return new Promise((resolve, reject) => {
    const child = spawn(st!, ['--config-file', CONFIG, 'run', ...args], {
      cwd,
      env: { ...process.env, ...env, NO_COLOR: '1', COLUMNS: '120' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(cwd, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

forEachEngine((t, engine) => {
  it(
    'answers every request schemathesis makes from the OpenAPI document as the document says',
    async (context) => {
      if (st === null) return context.skip();
      const server = t();
      // Data routes take the API key (every scope, unlimited tier); account routes take a session of another user,
      // so nothing schemathesis does through the account routes can pause, rotate or delete the key it uses.
      const session = await signUp(server);
      const origin = server.url.replace('localhost', '127.0.0.1');
      const { code, output } = await schemathesis(
        [
          `${origin}/api/openapi.json`,
          '--checks',
          CHECKS,
          '--seed',
          String(SEED),
          '--max-examples',
          String(MAX_EXAMPLES),
          '--generation-database',
          'none',
          // One worker: Python 3.11 before 3.11.5 (Debian 12's) can fail to parse source in two threads at once.
          '--workers',
          '1',
        ],
        {
          DATAPLATFORM_API_KEY: server.devKey,
          DATAPLATFORM_SESSION: session.token,
          SCHEMATHESIS_HOOKS: HOOKS,
        },
      );
      if (code !== 0) {
        expect.fail(
          `schemathesis found failures on ${engine} (seed ${SEED}, exit status ${code}):\n\n${output}`,
        );
      }
    },
    RUN_TIMEOUT_MS,
  );
});
