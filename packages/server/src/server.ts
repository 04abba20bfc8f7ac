import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { type DevAccount, ensureDevAccount } from './bootstrap/dev-credentials.js';
import { loadConfig, type ServerConfig } from './config.js';
import { prepareDataDir } from './data-dir.js';
import { openFrontDoor } from './http/front-door.js';
import { Maintenance, metricsRetention, requestLogRetention } from './maintenance.js';
import { keyExpiryNotices } from './notifications/key-expiry.js';
import type { ServerOptions } from './options.js';
import { openSharedState } from './shared-state.js';
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
  /** Periodic work claimed through the database. */
  maintenance: Maintenance;
  /** Stops accepting connections, finishes in-flight requests, closes the database. */
  close(): Promise<void>;
}

/**
 * Listens (or takes the socket `options.frontDoor` already listens on), opens the storage, builds the app, hands it
 * the requests that waited, and starts the delivery worker; `overrides` replace settings read from the
 * environment, and `options` are settings only code can give (see ServerOptions).
 */
export async function startServer(
  overrides: Partial<ServerConfig> = {},
  options: ServerOptions = {},
): Promise<RunningServer> {
  const config = { ...loadConfig(), ...overrides };
  prepareDataDir(config.dataDir);
  const door = options.frontDoor ?? (await openFrontDoor(config.port, config.host));
  const storage = await openStorage(config, options).catch(async (error) => {
    await door.close();
    throw error;
  });
  const shared = await openSharedState(config).catch(async (error) => {
    await door.close();
    await storage.close();
    throw error;
  });
  let app: FastifyInstance;
  try {
    app = await buildApp(config, storage, { ...options, frontDoor: door, shared });
    // Last of the hooks before the close: the streams are ended, so the open requests can finish.
    app.addHook('preClose', () => door.close());
    await app.ready();
  } catch (error) {
    await door.close();
    await shared.close();
    await storage.close();
    throw error;
  }
  door.open();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://localhost:${port}`;
  // Fastify logs no listening line of its own for a socket it did not open.
  app.log.info(`dataplatform server listening on ${url} (${storage.engine})`);
  // A production deployment never gets an all-scopes account it did not ask for.
  const devAccount =
    config.mode === 'development' ? await ensureDevAccount(storage, config.dataDir, url) : null;
  const maintenance = new Maintenance(storage, app.log, undefined, [
    ...app.billing.tasks.tasks(),
    requestLogRetention(config.logRetentionDays),
    metricsRetention,
    keyExpiryNotices(app.notifier),
  ]);
  maintenance.start();
  app.webhooks.worker?.start();
  app.triggerScheduler.start();
  return {
    app,
    storage,
    maintenance,
    url,
    devAccount,
    async close() {
      await maintenance.stop();
      await app.close();
      await shared.close();
      await storage.close();
    },
  };
}
