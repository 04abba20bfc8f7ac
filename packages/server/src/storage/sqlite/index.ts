import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ownerOnlyFile, prepareDataDir, tightenIfPresent } from '../../data-dir.js';
import type { EngineStorage } from '../types.js';
import { SqliteAccounts } from './accounts.js';
import { SqliteAuthChanges } from './auth-changes.js';
import { SqliteBackupSchedules } from './backup-schedules.js';
import { SqliteBackups } from './backups.js';
import { SqliteBilling } from './billing.js';
import { SqliteClusters } from './clusters.js';
import { SqliteDeliveries } from './deliveries.js';
import { SqliteDeviceAuthorizations } from './device-authorizations.js';
import { SqliteDocuments } from './documents.js';
import { SqliteFunctions } from './functions.js';
import { GroupCommit } from './group-commit.js';
import { SqliteIdempotency } from './idempotency.js';
import { SqliteIntelligence } from './intelligence.js';
import { SqliteJobs } from './jobs.js';
import { SqliteKeys } from './keys.js';
import { SqliteMetrics } from './metrics.js';
import { migrate } from './migrations.js';
import { SqliteNotifications } from './notifications.js';
import { SqliteOutbox } from './outbox.js';
import { SqliteQueries } from './query.js';
import { SqliteRequestLogs } from './request-logs.js';
import { SqliteRobots } from './robots.js';
import { SqliteSchema } from './schema.js';
import { SqliteSecrets } from './secrets.js';
import { SqliteSessions } from './sessions.js';
import { SqliteSettings } from './settings.js';
import { SqliteSignIn } from './sign-in.js';
import { SqliteTasks } from './tasks.js';
import { SqliteTriggers } from './triggers.js';
import { SqliteUsage } from './usage.js';
import { SqliteSubscriptionCache, SqliteWebhooks } from './webhooks.js';

/** Settings of the SQLite engine. */
export interface SqliteOptions {
  /** Directory of the database file; `:memory:` keeps everything in memory (tests only). */
  dataDir: string;
  /** `FULL` (default) syncs every commit to disk; `NORMAL` is faster and can lose the last commits on power loss. */
  synchronous?: 'FULL' | 'NORMAL';
  /** Bytes of the database file SQLite may map into memory for reads; 0 turns mapping off. */
  mmapSize?: number;
}

/** 1 GiB: the whole file of a database of a few million documents. */
export const DEFAULT_MMAP_SIZE = 1024 ** 3;

/**
 * The connection's page cache, in KiB (SQLite's negative `cache_size`): SQLite's own default. Reads of the file go
 * through the mapping above, so the cache holds what the mapping does not: pages being written and those still in
 * the WAL. better-sqlite3 builds SQLite with 16 MB instead, which a server under writes filled in its first
 * minutes (half a megabyte a second at 200 writes a second) for no measured gain (docs/benchmarks.md, "Realtime").
 */
const PAGE_CACHE_KIB = 2000;

/** Opens (and migrates) the embedded SQLite database in `dataDir`. */
export function openSqliteStorage(options: SqliteOptions): EngineStorage {
  let file = ':memory:';
  if (options.dataDir !== ':memory:') {
    prepareDataDir(options.dataDir);
    file = join(options.dataDir, 'dataplatform.sqlite');
    // SQLite makes its -wal and -shm files with the database file's mode, so 0600 here covers all three.
    ownerOnlyFile(file);
    for (const suffix of ['-wal', '-shm']) tightenIfPresent(file + suffix);
  }
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const synchronous = options.synchronous ?? 'FULL';
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Reads of a large database go through memory-mapped pages rather than a pread(2) per page, so a GET costs
  // about the same at a million documents as at ten thousand (measured in docs/benchmarks.md, scale part).
  db.pragma(`mmap_size = ${options.mmapSize ?? DEFAULT_MMAP_SIZE}`);
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  migrate(db);
  const subscriptions = new SqliteSubscriptionCache(db);
  const outbox = new SqliteOutbox(db, subscriptions);
  // Document writes commit in groups; with FULL, each group is made durable by a sync of the WAL file off the
  // event loop (group-commit.ts). The migrations above have created the WAL file.
  const group = new GroupCommit(
    db,
    synchronous === 'FULL' && file !== ':memory:' ? { walFile: `${file}-wal` } : {},
  );
  const idempotency = new SqliteIdempotency(db, group);
  return {
    engine: 'sqlite',
    authChanges: new SqliteAuthChanges(db),
    documents: new SqliteDocuments(db, group, idempotency, outbox),
    idempotency,
    keys: new SqliteKeys(db),
    usage: new SqliteUsage(db),
    robots: new SqliteRobots(db),
    functions: new SqliteFunctions(db),
    triggers: new SqliteTriggers(db),
    accounts: new SqliteAccounts(db),
    billing: new SqliteBilling(db),
    clusters: new SqliteClusters(db),
    tasks: new SqliteTasks(db),
    queries: new SqliteQueries(db),
    notifications: new SqliteNotifications(db),
    sessions: new SqliteSessions(db),
    settings: new SqliteSettings(db),
    requestLogs: new SqliteRequestLogs(db),
    metrics: new SqliteMetrics(db),
    secrets: new SqliteSecrets(db),
    signIn: new SqliteSignIn(db),
    deviceAuthorizations: new SqliteDeviceAuthorizations(db),
    jobs: new SqliteJobs(db),
    webhooks: new SqliteWebhooks(db, subscriptions),
    deliveries: new SqliteDeliveries(db, outbox, subscriptions),
    schema: new SqliteSchema(db),
    backupSchedules: new SqliteBackupSchedules(db),
    backups: new SqliteBackups(db, file),
    intelligence: new SqliteIntelligence(db),
    async ping() {
      db.prepare('SELECT 1').get();
    },
    async close() {
      await group.close();
      db.close();
    },
  };
}
