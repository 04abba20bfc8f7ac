import { BATCH_BODY_LIMIT } from '@dataplatform/contract';

/** Settings of the reference server, read from the environment. */
export interface ServerConfig {
  port: number;
  host: string;
  /** Directory of the embedded SQLite database, or `:memory:`. */
  dataDir: string;
  /** PostgreSQL address; when set, the server stores everything there instead of SQLite. */
  databaseUrl: string | undefined;
  /** PostgreSQL connections per instance. */
  databasePoolSize: number;
  /** Redis address; when set, rate-limit counters are shared by every instance. */
  redisUrl: string | undefined;
  /** Largest request body in bytes. */
  bodyLimit: number;
  /** Largest body of the batch route in bytes (16 MiB by default: 1000 ordinary documents). */
  batchBodyLimit: number;
  /** `development` (the default) or `production`. */
  mode: 'development' | 'production';
  logLevel: string;
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /** Bytes of the SQLite file mapped into memory for reads. */
  sqliteMmapSize: number;
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}

/** Reads the server settings from environment variables (documented in docs/deployment.md). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const synchronous = (env.DATAPLATFORM_SQLITE_SYNCHRONOUS ?? 'FULL').toUpperCase();
  if (synchronous !== 'FULL' && synchronous !== 'NORMAL')
    throw new Error('DATAPLATFORM_SQLITE_SYNCHRONOUS must be FULL or NORMAL');
  return {
    port: integer(env.PORT, 5000, 'PORT'),
    host: env.HOST || 'localhost',
    dataDir: env.DATAPLATFORM_DATA_DIR || './.dataplatform',
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: integer(env.DATABASE_POOL_SIZE, 10, 'DATABASE_POOL_SIZE'),
    redisUrl: env.REDIS_URL || undefined,
    bodyLimit: integer(env.DATAPLATFORM_BODY_LIMIT, 1024 * 1024, 'DATAPLATFORM_BODY_LIMIT'),
    batchBodyLimit: integer(
      env.DATAPLATFORM_BATCH_BODY_LIMIT,
      BATCH_BODY_LIMIT,
      'DATAPLATFORM_BATCH_BODY_LIMIT',
    ),
    mode: env.NODE_ENV === 'production' ? 'production' : 'development',
    logLevel: env.LOG_LEVEL || 'info',
    sqliteSynchronous: synchronous,
    sqliteMmapSize: integer(env.DATAPLATFORM_SQLITE_MMAP_SIZE, 1024 ** 3, 'DATAPLATFORM_SQLITE_MMAP_SIZE'),
  };
}
