import { loadCases, runCase } from '@dataplatform/conformance';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createDataPlatformMocks } from '../src/index.js';

const BASE_URL = 'http://localhost:5000';

// One mock API for the whole suite: each case signs its own users up and names its own collections.
const mocks = createDataPlatformMocks({ baseUrl: BASE_URL });
const server = setupServer(...mocks.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe.concurrent('the conformance cases of spec/conformance', () => {
  for (const { id, case: testCase } of loadCases()) {
    const skip = testCase.skip?.mocks;
    it.skipIf(skip !== undefined)(`${id}: ${testCase.title}`, () =>
      runCase(testCase, { name: 'mocks', baseUrl: BASE_URL }),
    );
  }
});
