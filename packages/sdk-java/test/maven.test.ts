import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine } from '../../server/test/helpers.js';
import { hasMaven, type MavenRun, mvn, PACKAGE } from './maven.js';

/** The case files of spec/conformance, and how many of them the format skips on the server. */
const CASES_DIR = join(PACKAGE, '..', '..', 'spec', 'conformance');
const cases = readdirSync(CASES_DIR, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.includes('/') && file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(join(CASES_DIR, file), 'utf8')) as { skip?: { server?: string } });
const skippedOnServer = cases.filter((c) => c.skip?.server).length;

const RESOLVE_TIMEOUT_MS = 10 * 60_000;
const RUN_TIMEOUT_MS = 10 * 60_000;

let maven = false;

beforeAll(async () => {
  maven = await hasMaven();
  if (!maven) {
    if (process.env.CI)
      throw new Error('Maven and a JDK are missing; .ci/run installs maven and openjdk-17-jdk-headless');
    console.warn(
      '\n⚠ mvn or javac not found: the Java client tests are skipped (install maven and a JDK 17).\n',
    );
    return;
  }
  // Once, before the runs below: compiles, and brings what the build needs from Maven Central into ~/.m2 the
  // first time (the runs below then find it there, never two downloads at once).
  const resolved = await mvn(['-q', 'test-compile', 'dependency:go-offline']);
  if (resolved.code !== 0) throw new Error(`mvn test-compile failed:\n${resolved.output}`);
}, RESOLVE_TIMEOUT_MS);

/** Fails with Maven's report unless the run passed; prints its totals either way. */
function expectPassed(run: MavenRun, what: string): void {
  console.log(`mvn test (${what}): ${run.run} run, ${run.failed} failed, ${run.skipped} skipped`);
  if (run.code !== 0) expect.fail(`mvn test failed for ${what} (exit status ${run.code}):\n\n${run.output}`);
}

describe('the Java client', () => {
  it(
    'passes its unit tests: options, errors, retries and idempotency against a local server, pages, events, vectors, coverage',
    async (context) => {
      if (!maven) return context.skip();
      const run = await mvn(['test']);
      expectPassed(run, 'unit');
      expect(run.run).toBeGreaterThan(0);
      expect(run.failed).toBe(0);
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
        if (!maven) return context.skip();
        const run = await mvn(
          ['test', '-Dgroups=conformance', '-DexcludedGroups=', '-Dsurefire.failIfNoSpecifiedTests=false'],
          {
            DATAPLATFORM_CONFORMANCE_URL: t().url.replace('localhost', '127.0.0.1'),
            DATAPLATFORM_LIVE_API_KEY: t().devKey,
          },
        );
        expectPassed(run, `conformance on ${engine}`);
        // Every case must have run, but those the format itself skips on the server; every live test too.
        expect(run.classes.get('ConformanceTest')).toEqual({
          run: cases.length,
          failed: 0,
          skipped: skippedOnServer,
        });
        expect(run.classes.get('LiveTest')).toMatchObject({ failed: 0, skipped: 0 });
        expect(run.classes.get('LiveTest')?.run).toBeGreaterThan(0);
      },
      RUN_TIMEOUT_MS,
    );
  },
  { config: { trustedProxies: ['127.0.0.1/32', '::1'] } },
);
