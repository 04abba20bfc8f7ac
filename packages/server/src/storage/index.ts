import type { ServerConfig } from '../config.js';
import type { ServerOptions } from '../options.js';
import { withAuthCache } from './cached-stores.js';
import type { Storage } from './types.js';

/**
 * Opens the storage engine the configuration names: PostgreSQL for a `DATABASE_URL`, embedded SQLite otherwise.
 * Only the engine in use is loaded (its driver included): a SQLite server never loads the PostgreSQL client.
 */
export async function openStorage(
  config: Pick<ServerConfig, 'databaseUrl' | 'databasePoolSize' | 'dataDir' | 'sqliteSynchronous'> &
    Partial<Pick<ServerConfig, 'sqliteMmapSize'>>,
  options: Pick<ServerOptions, 'presenceLeaseMs'> = {},
): Promise<Storage> {
  if (config.databaseUrl) {
    if (!/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
      throw new Error('DATABASE_URL must be a postgres:// or postgresql:// address');
    }
    const { openPostgresStorage } = await import('./postgres/index.js');
    return withAuthCache(
      await openPostgresStorage({
        url: config.databaseUrl,
        poolSize: config.databasePoolSize,
        presenceLeaseMs: options.presenceLeaseMs,
      }),
    );
  }
  const { openSqliteStorage } = await import('./sqlite/index.js');
  return withAuthCache(
    openSqliteStorage({
      dataDir: config.dataDir,
      synchronous: config.sqliteSynchronous,
      mmapSize: config.sqliteMmapSize,
    }),
  );
}
