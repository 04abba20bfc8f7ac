import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { type DevAccount, ensureDevAccount } from './bootstrap/dev-credentials.js';
import { loadConfig, type ServerConfig } from './config.js';
import { openStorage } from './storage/index.js';
import type { Storage } from './storage/types.js';

/** A running reference server. */
export interface RunningServer {
  app: FastifyInstance;
  storage: Storage;
  /** Base address, e.g. http://localhost:5000. */
  url: string;
  /** The development account when this start created it (first start on an empty database). */
  devAccount: DevAccount | null;
  /** Stops accepting connections, finishes in-flight requests, closes the database. */
  close(): Promise<void>;
}

/** Opens the storage, builds the app and listens; `overrides` replace settings read from the environment. */
export async function startServer(overrides: Partial<ServerConfig> = {}): Promise<RunningServer> {
  const config = { ...loadConfig(), ...overrides };
  const storage = await openStorage(config);
  const app = await buildApp(config, storage);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await storage.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://localhost:${port}`;
  const devAccount = await ensureDevAccount(storage, config.dataDir, url);
  return {
    app,
    storage,
    url,
    devAccount,
    async close() {
      await app.close();
      await storage.close();
    },
  };
}
