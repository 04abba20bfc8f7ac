import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import {
  addApiKey,
  type Clock,
  type CreatedAccount,
  createAccountWithKey,
  type RunningServer,
  type ServerConfig,
  startServer,
} from '../src/index.js';

/** Storage engines a test can run on. */
export type Engine = 'sqlite' | 'postgres';

/** The engines available in this run: SQLite always, PostgreSQL when the global setup could start one. */
export function availableEngines(): Engine[] {
  return inject('postgresUrl') ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * Runs the same tests once per engine, each with its own fresh server: `t()` is that server (with
 * `options.config` applied). This is the engine matrix of the HTTP suites; the tests themselves are written once.
 */
export function forEachEngine(
  body: (t: () => TestServer, engine: Engine) => void,
  options: { config?: Partial<ServerConfig> } = {},
): void {
  describe.each(availableEngines())('on %s', (engine) => {
    let server: TestServer | undefined;
    beforeAll(async () => {
      server = await startTestServer({ engine, config: options.config });
    }, 60_000);
    // Closing waits for the server's open connections and its last usage batch; a loaded machine takes a while.
    afterAll(() => server?.stop(), 30_000);
    body(() => server!, engine);
  });
}

/** A fresh, empty PostgreSQL database on the test cluster, and a function that drops it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('postgresUrl');
  if (!adminUrl) throw new Error('no test PostgreSQL in this run');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await sql.end();
    },
  };
}

/** A reference server on a free port over a fresh data directory, with accounts made for the test. */
export interface TestServer {
  engine: Engine;
  server: RunningServer;
  url: string;
  dataDir: string;
  /** The PostgreSQL database of the server, when it runs on PostgreSQL. */
  databaseUrl: string | undefined;
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
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

/** Starts a server on a fresh database of the given engine (SQLite in a temporary directory by default). */
export async function startTestServer(
  options: {
    engine?: Engine;
    redisUrl?: string;
    /** Settings to change besides the test's own (port, host, data directory, database). */
    config?: Partial<ServerConfig>;
    /** The clock of the webhook machinery. */
    clock?: Clock;
  } = {},
): Promise<TestServer> {
  const engine = options.engine ?? 'sqlite';
  const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-test-'));
  const database = engine === 'postgres' ? await createTestDatabase() : undefined;
  const server = await startServer(
    {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: database?.url,
      redisUrl: options.redisUrl,
      logLevel: 'warn',
      // Suites sign many users up and in from one address; the per-address limits have their own suite.
      authLimits: {
        signinsPerMinute: 1000,
        signupsPerHour: 1000,
        resetRequestsPerHour: 1000,
        lockAfterFailures: 10,
        lockMinutes: 15,
      },
      ...options.config,
    },
    { clock: options.clock },
  );
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
    engine,
    server,
    url,
    dataDir,
    databaseUrl: database?.url,
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
    async stop() {
      await server.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let signUps = 0;

/** A signed-up user: their session token and user object, and the password they signed up with. */
export interface SignedUp {
  token: string;
  user: { _id: string; email: string; name: string; createdAt: string };
  email: string;
  password: string;
}

/**
 * Signs a new user up through `POST /api/auth/signup` (a fresh e-mail each call unless given) and returns their
 * session token. Send it with `t.call(method, path, { key: null, headers: bearer(token) })`.
 */
export async function signUp(
  t: Pick<TestServer, 'call'>,
  overrides: { email?: string; password?: string; name?: string; headers?: Record<string, string> } = {},
): Promise<SignedUp> {
  const email =
    overrides.email ?? `user-${process.pid}-${++signUps}-${randomBytes(3).toString('hex')}@example.com`;
  const password = overrides.password ?? `pw-${randomBytes(9).toString('base64url')}`;
  const res = await t.call('POST', '/api/auth/signup', {
    key: null,
    body: { email, password, name: overrides.name ?? 'Test User' },
    headers: overrides.headers,
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; user: SignedUp['user'] };
  return { token: body.token, user: body.user, email, password };
}

/** The Authorization header of a session token. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
