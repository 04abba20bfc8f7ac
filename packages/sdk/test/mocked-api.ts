import { createDataPlatformMocks } from '@dataplatform/mocks';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { DataPlatform } from '../src/index.js';

/**
 * The contract's mocks behind MSW for one test file: started before its tests, emptied after each, closed at the
 * end. Call once at the top of a file. `seen` holds `METHOD /path?query` of every request of the current test.
 */
export function useMockedApi() {
  const baseUrl = 'http://localhost:5000';
  const mocks = createDataPlatformMocks({ baseUrl });
  const server = setupServer(...mocks.handlers);
  const seen: string[] = [];
  beforeAll(() => {
    server.listen({ onUnhandledRequest: 'error' });
    server.events.on('request:start', ({ request }) => {
      const url = new URL(request.url);
      seen.push(`${request.method} ${url.pathname}${url.search}`);
    });
  });
  afterEach(() => {
    mocks.store.reset();
    seen.length = 0;
  });
  afterAll(() => server.close());

  /** A client signed in as a fresh user of the mocks. */
  async function signedIn(): Promise<DataPlatform> {
    const client = new DataPlatform({ baseUrl, maxRetries: 0 });
    await client.auth.signUp(
      {
        email: `user-${Math.random().toString(36).slice(2)}@example.com`,
        password: 'a long passphrase',
        name: 'User',
      },
      { storeToken: true },
    );
    return client;
  }

  return { baseUrl, mocks, server, seen, signedIn };
}
