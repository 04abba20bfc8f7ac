import type { ServerConfig } from '../config.js';
import { openSqliteStorage } from './sqlite/index.js';
import type { Storage } from './types.js';

export type * from './types.js';

/** Opens the storage engine the configuration names: PostgreSQL for a `DATABASE_URL`, embedded SQLite otherwise. */
export async function openStorage(
  config: Pick<ServerConfig, 'databaseUrl' | 'dataDir' | 'sqliteSynchronous'>,
): Promise<Storage> {
  if (config.databaseUrl) {
    throw new Error(
      'DATABASE_URL is set, but this build has no PostgreSQL engine yet; unset it to use embedded SQLite',
    );
  }
  return openSqliteStorage({ dataDir: config.dataDir, synchronous: config.sqliteSynchronous });
}
