import { ErrorBody, errorCodes } from '@dataplatform/contract';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createDataPlatformMocks, type DataPlatformMocksOptions } from '../src/index.js';

/** The address the tests call; the mocks' default. */
export const BASE_URL = 'http://localhost:5000';

/** What a test sends: a key (default: the all-scopes key, `null` for none), a JSON body or raw text, extra headers. */
export interface CallOptions {
  key?: string | null;
  json?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** What a test reads back: status, headers and the parsed JSON body. */
export interface CallResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  body: any;
}

/**
 * Starts an MSW server with a fresh mock instance for the test file; unhandled requests fail the test.
 * The store is reset after each test so tests do not see each other's documents.
 */
export function useMockApi(options: DataPlatformMocksOptions = {}) {
  const mocks = createDataPlatformMocks(options);
  const server = setupServer(...mocks.handlers);
  const baseUrl = (options.baseUrl ?? BASE_URL).replace(/\/+$/, '');
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => mocks.store.reset());
  afterAll(() => server.close());

  async function call(method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
    const key = options.key === undefined ? mocks.apiKey : options.key;
    const headers: Record<string, string> = { ...(key ? { 'X-API-Key': key } : {}), ...options.headers };
    let body: string | undefined = options.rawBody;
    if (body !== undefined) headers['Content-Type'] ??= 'application/json';
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] = 'application/json';
    }
    // Redirects (the provider sign-in routes) are answers to check, not to follow.
    const response = await fetch(baseUrl + path, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    const result = {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    if (result.status >= 400) expectContractError(result);
    return result;
  }

  return { mocks, server, call };
}

/** Every error answer, in every test, must have the contract's shape, a registered code and that code's status. */
function expectContractError(result: CallResult): void {
  expect(ErrorBody.strict().safeParse(result.body).success, JSON.stringify(result.body)).toBe(true);
  const registered = errorCodes[result.body.code as keyof typeof errorCodes];
  expect(registered, `unregistered code ${result.body.code}`).toBeDefined();
  expect(result.status).toBe(registered.status);
  expect(result.body.requestId).toBe(result.headers.get('x-request-id'));
}
