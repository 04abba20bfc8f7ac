import { spawn } from 'node:child_process';
import { loadCases } from '@dataplatform/conformance';
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine } from '../../server/test/helpers.js';
import { goCommand, MODULE, STATICCHECK, staticcheckCommand } from './go-env.js';

/** The cases of spec/conformance, and how many of them the format skips on the server. */
const cases = loadCases();
const skippedOnServer = cases.filter((c) => c.case.skip?.server).length;

const RUN_TIMEOUT_MS = 10 * 60_000;

let go: string | null = null;

beforeAll(async () => {
  go = await goCommand();
  if (go === null) {
    if (process.env.CI) throw new Error('Go 1.23 or later is missing; the Go client needs it');
    console.warn('\n⚠ Go 1.23 or later not found: the Go client tests are skipped.\n');
  }
});

interface Run {
  code: number | null;
  output: string;
}

/** Runs a command in the module without blocking the event loop the servers answer on. */
function inModule(command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: MODULE,
      // The client reads these when no option is given: a developer's own must not leak into the tests.
      env: {
        ...process.env,
        DATAPLATFORM_API_KEY: '',
        DATAPLATFORM_TOKEN: '',
        DATAPLATFORM_BASE_URL: '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * The lines `go test -v` prints for failures (a `_test.go:N:` message and its indented continuation), so that a
 * failure's reason leads the report even when only the report's first part is read.
 */
function failureMessages(output: string): string {
  const lines = output.split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s+\w+_test\.go:\d+:/.test(lines[i]!)) continue;
    kept.push(lines[i]!);
    while (i + 1 < lines.length && /^\s{8,}\S/.test(lines[i + 1]!)) kept.push(lines[++i]!);
  }
  return kept.join('\n');
}

function expectSuccess(run: Run, what: string): void {
  if (run.code !== 0)
    expect.fail(`${what} failed (exit status ${run.code}):\n${failureMessages(run.output)}\n\n${run.output}`);
}

describe('the Go client', () => {
  it(
    'is gofmt-formatted, passes go vet and staticcheck, and its unit tests pass under the race detector',
    async (context) => {
      if (go === null) return context.skip();
      const unformatted = await inModule('gofmt', ['-l', '.']);
      expectSuccess(unformatted, 'gofmt -l');
      expect(unformatted.output.trim(), 'files gofmt would change').toBe('');
      expectSuccess(await inModule(go, ['vet', './...']), 'go vet');
      const staticcheck = await staticcheckCommand();
      if (staticcheck === null) {
        if (process.env.CI) throw new Error(`staticcheck is missing: .ci/run installs ${STATICCHECK}`);
        console.warn(`\n⚠ staticcheck not found (go install ${STATICCHECK}): that check is skipped.\n`);
      } else expectSuccess(await inModule(staticcheck, ['./...']), 'staticcheck');
      const tests = await inModule(go, ['test', '-race', './...']);
      expectSuccess(tests, 'go test -race');
      console.log(`go test -race ./...:\n${tests.output.trim()}`);
    },
    RUN_TIMEOUT_MS,
  );
});

// Loopback is a trusted proxy here, so cases can speak from another address with X-Forwarded-For.
forEachEngine(
  (t, engine) => {
    it(
      "runs every conformance case, and the client's own calls, against the reference server",
      async (context) => {
        if (go === null) return context.skip();
        // Without -race: the unit tests run the client's concurrency under the race detector already, and the
        // cases' sign-ups and password hashing are the run's time, which the detector would only slow.
        const run = await inModule(
          go!,
          ['test', '-count=1', '-parallel=8', '-v', './conformance/', './live/'],
          {
            DATAPLATFORM_CONFORMANCE_URL: t().url.replace('localhost', '127.0.0.1'),
            DATAPLATFORM_LIVE_API_KEY: t().devKey,
          },
        );
        expectSuccess(run, `the Go conformance and live run on ${engine}`);
        const count = (pattern: string) => run.output.match(new RegExp(pattern, 'g'))?.length ?? 0;
        const passed = count('--- PASS: TestConformance/');
        const skipped = count('--- SKIP: TestConformance/');
        console.log(`Go conformance on ${engine}: ${passed} passed, ${skipped} skipped`);
        // Every case must have run, but those the format itself skips on the server.
        expect(skipped).toBe(skippedOnServer);
        expect(passed).toBe(cases.length - skippedOnServer);
        expect(count('--- SKIP: TestLive')).toBe(0);
        expect(count('--- PASS: TestLive')).toBeGreaterThan(0);
      },
      RUN_TIMEOUT_MS,
    );
  },
  { config: { trustedProxies: ['127.0.0.1/32', '::1'] } },
);
