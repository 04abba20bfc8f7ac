import { loadCases, runCase } from '@dataplatform/conformance';
import { describe, it } from 'vitest';
import { forEachEngine } from './helpers.js';

// Loopback is a trusted proxy here, so cases can speak from another address with X-Forwarded-For.
forEachEngine(
  (t) => {
    describe.concurrent('the conformance cases of spec/conformance', () => {
      for (const { id, case: testCase } of loadCases()) {
        const skip = testCase.skip?.server;
        it.skipIf(skip !== undefined)(
          `${id}: ${testCase.title}`,
          () => runCase(testCase, { name: 'server', baseUrl: t().url }),
          // A budget, not a measure: failed sign-ins slow down on purpose, and every sign-up runs scrypt.
          300_000,
        );
      }
    });
  },
  { config: { trustedProxies: ['127.0.0.1/32', '::1'] } },
);
