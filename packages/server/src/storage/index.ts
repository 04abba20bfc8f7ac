import type { ServerConfig } from '../config.js';
import type { ServerOptions } from '../options.js';
import { withAuthCache } from './cached-stores.js';
import { openPostgresStorage } from './postgres/index.js';
import { openSqliteStorage } from './sqlite/index.js';
import type { Storage } from './types.js';

/** Opens the storage engine the configuration names: PostgreSQL for a `DATABASE_URL`, embedded SQLite otherwise. */
export async function openStorage(
  config: Pick<ServerConfig, 'databaseUrl' | 'databasePoolSize' | 'dataDir' | 'sqliteSynchronous'> &
    Partial<Pick<ServerConfig, 'sqliteMmapSize'>>,
  options: Pick<ServerOptions, 'presenceLeaseMs'> = {},
): Promise<Storage> {
  if (config.databaseUrl) {
    if (!/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
      throw new Error('DATABASE_URL must be a postgres:// or postgresql:// address');
    }
    return withAuthCache(
      await openPostgresStorage({
        url: config.databaseUrl,
        poolSize: config.databasePoolSize,
        presenceLeaseMs: options.presenceLeaseMs,
      }),
    );
  }
  return withAuthCache(
    openSqliteStorage({
      dataDir: config.dataDir,
      synchronous: config.sqliteSynchronous,
      mmapSize: config.sqliteMmapSize,
    }),
  );
}
