import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addApiKey,
  type CreatedAccount,
  createAccountWithKey,
  type RunningServer,
  startServer,
} from '../src/index.js';

/** A reference server on a free port over a fresh data directory, with accounts made for the test. */
export interface TestServer {
  server: RunningServer;
  url: string;
  dataDir: string;
  /** The development account created on first start (enterprise tier, every scope). */
  devKey: string;
  /** Another account with its own cluster, on the free plan without a trial (100 requests a minute). */
  other: CreatedAccount;
  /** Adds a key to the development account's cluster. */
  addKey(options: {
    scopes?: string[];
    expiresAt?: string | null;
  }): Promise<{ keyId: string; apiKey: string }>;
  /** Sends a request with the given key; `body` objects are sent as JSON. */
  call(
    method: string,
    path: string,
    options?: { key?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Stops the server and removes its data unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/** Starts a server for a test file; reuse `dataDir` to restart over the same data. */
export async function startTestServer(options: { dataDir?: string } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'dataplatform-test-'));
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'warn' });
  const dev = server.devAccount;
  if (!dev) throw new Error('startTestServer needs a fresh data directory for the development account');
  const devKey = dev.apiKey;
  const other = await createAccountWithKey(server.storage, {
    email: `other-${Math.random().toString(36).slice(2)}@example.com`,
    name: 'Other',
    password: 'correct horse battery staple',
  });
  const url = server.url;
  return {
    server,
    url,
    dataDir,
    devKey,
    other,
    addKey: (keyOptions) => addApiKey(server.storage, dev, keyOptions),
    call(method, path, callOptions = {}) {
      const headers: Record<string, string> = { ...callOptions.headers };
      const key = callOptions.key === undefined ? devKey : callOptions.key;
      if (key !== null) headers['x-api-key'] ??= key;
      let body: string | undefined;
      if (callOptions.body !== undefined) {
        body = typeof callOptions.body === 'string' ? callOptions.body : JSON.stringify(callOptions.body);
        headers['content-type'] ??= 'application/json';
      }
      return fetch(`${url}${path}`, { method, headers, body });
    },
    async stop(stopOptions = {}) {
      await server.close();
      if (!stopOptions.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
