import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addApiKey, type RunningServer, startServer } from '@dataplatform/server';
import { afterAll, beforeAll } from 'vitest';
import { tempConfigDir } from '../harness.js';

/** The reference server of a suite and what the binary needs to reach it. */
export interface Reference {
  server: RunningServer;
  url: string;
  /** The development account's key, holding every scope. */
  apiKey: string;
  /** The development account's e-mail and password, for signing in. */
  email: string;
  password: string;
  /** A new key of the development account with only these scopes. */
  addKey(scopes: string[]): Promise<string>;
  /** DATAPLATFORM_BASE_URL, DATAPLATFORM_API_KEY and a fresh DATAPLATFORM_CONFIG_DIR. */
  env(): Record<string, string>;
}

/** Starts the reference server (embedded SQLite in a temporary directory) in this process for the suite. */
export function useReferenceServer(): () => Reference {
  let reference: Reference | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dp-e2e-'));
    const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'warn' });
    const dev = server.devAccount;
    if (!dev) throw new Error('the reference server made no development account');
    // The binary gets the address it listens on, not `localhost`, which might resolve to ::1 first.
    const url = server.url.replace('localhost', '127.0.0.1');
    reference = {
      server,
      url,
      apiKey: dev.apiKey,
      email: dev.email,
      password: dev.password,
      addKey: async (scopes) => (await addApiKey(server.storage, dev, { scopes })).apiKey,
      env: () => ({
        DATAPLATFORM_BASE_URL: url,
        DATAPLATFORM_API_KEY: dev.apiKey,
        DATAPLATFORM_CONFIG_DIR: tempConfigDir(),
      }),
    };
  }, 60_000);
  afterAll(async () => {
    await reference?.server.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!reference) throw new Error('the reference server is not running');
    return reference;
  };
}
