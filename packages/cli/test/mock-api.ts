import {
  createDataPlatformMocks,
  type DataPlatformMocks,
  type DataPlatformMocksOptions,
} from '@dataplatform/mocks';
import type { RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/** The address the mock API answers on: not the default one, so a test also proves the setting is used. */
export const MOCK_BASE_URL = 'http://mock.dataplatform.test:5000';

/** A mock API for one test file, the requests it received, and an environment pointing the CLI at it. */
export interface MockApi {
  mocks: DataPlatformMocks;
  /** `METHOD path?query` of every request since the test began, in order. */
  requests(): string[];
  /** DATAPLATFORM_BASE_URL and DATAPLATFORM_API_KEY for the mock API. */
  env: Record<string, string>;
  /** Adds handlers in front of the contract's for the current test (a route the mocks lack, a local receiver). */
  use(...handlers: RequestHandler[]): void;
  /** Signs a new user up; `env` points the CLI at the mock API with the user's session token. */
  signUp(fields?: { email?: string; password?: string; name?: string }): Promise<SignedUpUser>;
}

/** A user `signUp` made. */
export interface SignedUpUser {
  token: string;
  userId: string;
  email: string;
  env: { DATAPLATFORM_BASE_URL: string; DATAPLATFORM_TOKEN: string };
}

/**
 * Installs MSW with the contract's handlers for the file's tests. A request no handler answers fails the test,
 * and every test is expected to check `requests()`, so an unused or unexpected call cannot pass unnoticed.
 */
export function useMockApi(options: Omit<DataPlatformMocksOptions, 'baseUrl'> = {}): MockApi {
  const mocks = createDataPlatformMocks({ ...options, baseUrl: MOCK_BASE_URL });
  const server = setupServer(...mocks.handlers);
  const seen: string[] = [];
  const unhandled: string[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    seen.push(`${request.method} ${url.pathname}${url.search}`);
  });
  beforeAll(() =>
    server.listen({
      onUnhandledRequest: (request) => {
        unhandled.push(`${request.method} ${request.url}`);
      },
    }),
  );
  afterEach(() => {
    const stray = unhandled.splice(0);
    seen.length = 0;
    server.resetHandlers();
    mocks.store.reset();
    expect(stray, 'requests that no handler answered').toEqual([]);
  });
  afterAll(() => server.close());
  return {
    mocks,
    requests: () => [...seen],
    env: { DATAPLATFORM_BASE_URL: MOCK_BASE_URL, DATAPLATFORM_API_KEY: mocks.apiKey },
    use: (...handlers) => server.use(...handlers),
    async signUp(fields = {}) {
      const email = fields.email ?? `user-${Math.random().toString(36).slice(2)}@example.com`;
      const res = await fetch(`${MOCK_BASE_URL}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email,
          password: fields.password ?? 'a long passphrase',
          name: fields.name ?? 'User',
        }),
      });
      const { token, user } = (await res.json()) as { token: string; user: { _id: string } };
      return {
        token,
        userId: user._id,
        email,
        env: { DATAPLATFORM_BASE_URL: MOCK_BASE_URL, DATAPLATFORM_TOKEN: token },
      };
    },
  };
}
