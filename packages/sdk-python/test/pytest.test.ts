import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine } from '../../server/test/helpers.js';
import { PACKAGE, pythonExecutable } from './python-env.js';

/** The case files of spec/conformance, and how many of them the format skips on the server. */
const CASES_DIR = join(PACKAGE, '..', '..', 'spec', 'conformance');
const cases = readdirSync(CASES_DIR, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.includes('/') && file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(join(CASES_DIR, file), 'utf8')) as { skip?: { server?: string } });
const skippedOnServer = cases.filter((c) => c.skip?.server).length;

const INSTALL_TIMEOUT_MS = 10 * 60_000;
const RUN_TIMEOUT_MS = 10 * 60_000;

let python: string | null = null;

beforeAll(async () => {
  python = await pythonExecutable();
  if (python === null) {
    if (process.env.CI)
      throw new Error('python3 with venv is missing; .ci/run installs the python3-venv package');
    console.warn(
      '\n⚠ python3 with venv not found: the Python client tests are skipped (install python3-venv).\n',
    );
  }
}, INSTALL_TIMEOUT_MS);

interface PytestRun {
  code: number | null;
  output: string;
  passed: number;
  skipped: number;
}

/** Runs pytest on some of the package's tests without blocking the event loop the servers answer on. */
function pytest(args: string[], env: Record<string, string> = {}): Promise<PytestRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(python!, ['-m', 'pytest', '-q', '-rfEs', ...args], {
      cwd: PACKAGE,
      // The client reads these when no option is given: a developer's own must not leak into the tests.
      env: {
        ...process.env,
        DATAPLATFORM_API_KEY: '',
        DATAPLATFORM_TOKEN: '',
        DATAPLATFORM_BASE_URL: '',
        PYTHONPATH: 'src',
        PYTHONDONTWRITEBYTECODE: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(output)?.[1] ?? 0);
      resolve({ code, output, passed: count('passed'), skipped: count('skipped') });
    });
  });
}

/** Fails with pytest's report unless the run passed; prints its closing line either way. */
function expectPassed(run: PytestRun, what: string): void {
  const closing = run.output.trim().split('\n').at(-1) ?? '';
  console.log(`pytest (${what}): ${closing}`);
  if (run.code !== 0) expect.fail(`pytest failed for ${what} (exit status ${run.code}):\n\n${run.output}`);
}

describe('the Python client', () => {
  it(
    'passes its unit tests: errors, retries and idempotency against a flaky server, pages, async, vectors, typing',
    async (context) => {
      if (python === null) return context.skip();
      const run = await pytest(['tests/unit']);
      expectPassed(run, 'unit');
      expect(run.passed).toBeGreaterThan(0);
    },
    RUN_TIMEOUT_MS,
  );
});

// Loopback is a trusted proxy here, so cases can speak from another address with X-Forwarded-For.
forEachEngine(
  (t, engine) => {
    it(
      'runs every conformance case and its live tests against the reference server',
      async (context) => {
        if (python === null) return context.skip();
        const run = await pytest(['tests/conformance', 'tests/live'], {
          DATAPLATFORM_CONFORMANCE_URL: t().url.replace('localhost', '127.0.0.1'),
          DATAPLATFORM_LIVE_API_KEY: t().devKey,
        });
        expectPassed(run, `conformance on ${engine}`);
        // Every case must have run, but those the format itself skips on the server.
        expect(run.skipped).toBe(skippedOnServer);
        expect(run.passed).toBeGreaterThanOrEqual(cases.length - skippedOnServer);
      },
      RUN_TIMEOUT_MS,
    );
  },
  { config: { trustedProxies: ['127.0.0.1/32', '::1'] } },
);
