import postgres from 'postgres';
import type { EngineStorage, PoolState } from '../types.js';
import { PostgresAccounts } from './accounts.js';
import { PostgresAuthChanges } from './auth-changes.js';
import { PostgresBackupSchedules } from './backup-schedules.js';
import { PostgresBackups } from './backups.js';
import { PostgresBilling } from './billing.js';
import { PostgresClusters } from './clusters.js';
import { PostgresCollections } from './collections.js';
import { PostgresDeliveries } from './deliveries.js';
import { PostgresDeviceAuthorizations } from './device-authorizations.js';
import { PostgresDocuments } from './documents.js';
import { PostgresFunctions } from './functions.js';
import { PostgresIdempotency } from './idempotency.js';
import { PostgresIntelligence } from './intelligence.js';
import { PostgresJobs } from './jobs.js';
import { PostgresKeys } from './keys.js';
import { PostgresMetrics } from './metrics.js';
import { migrate } from './migrations.js';
import { PostgresNotifications } from './notifications.js';
import { PostgresOutbox } from './outbox.js';
import { SubscriptionPresence } from './presence.js';
import { PostgresQueries } from './query.js';
import { PostgresRequestLogs } from './request-logs.js';
import { PostgresRobots } from './robots.js';
import { PostgresSchema } from './schema.js';
import { PostgresSecrets } from './secrets.js';
import { PostgresSessions } from './sessions.js';
import { PostgresSettings } from './settings.js';
import { PostgresSignIn } from './sign-in.js';
import { PostgresTasks } from './tasks.js';
import { PostgresTriggers } from './triggers.js';
import { PostgresUsage } from './usage.js';
import { PostgresWebhooks } from './webhooks.js';

/** Settings of the PostgreSQL engine. */
export interface PostgresOptions {
  url: string;
  /** Connections per server instance. */
  poolSize?: number;
  /** How long an answer about a cluster's subscriptions is trusted (SubscriptionPresence; default 500 ms). */
  presenceLeaseMs?: number;
}

/** Connects to PostgreSQL, runs pending migrations, and returns the storage. */
export async function openPostgresStorage(options: PostgresOptions): Promise<EngineStorage> {
  const sql = postgres(options.url, {
    max: options.poolSize ?? 10,
    onnotice: () => {},
    // Session settings every query relies on.
    connection: { application_name: 'dataplatform-server' },
  });
  try {
    await migrate(sql);
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw error;
  }
  const authChanges = new PostgresAuthChanges(sql, options.url);
  await authChanges.listen();
  const idempotency = new PostgresIdempotency(sql);
  const presence = new SubscriptionPresence(sql, options.presenceLeaseMs);
  const outbox = new PostgresOutbox(sql, presence);
  return {
    engine: 'postgres',
    authChanges,
    documents: new PostgresDocuments(sql, new PostgresCollections(sql), idempotency, outbox),
    idempotency,
    keys: new PostgresKeys(sql),
    usage: new PostgresUsage(sql),
    robots: new PostgresRobots(sql),
    functions: new PostgresFunctions(sql),
    triggers: new PostgresTriggers(sql),
    accounts: new PostgresAccounts(sql),
    billing: new PostgresBilling(sql),
    clusters: new PostgresClusters(sql),
    tasks: new PostgresTasks(sql),
    queries: new PostgresQueries(sql, new PostgresCollections(sql)),
    notifications: new PostgresNotifications(sql),
    settings: new PostgresSettings(sql),
    requestLogs: new PostgresRequestLogs(sql),
    metrics: new PostgresMetrics(sql),
    sessions: new PostgresSessions(sql),
    secrets: new PostgresSecrets(sql),
    signIn: new PostgresSignIn(sql),
    deviceAuthorizations: new PostgresDeviceAuthorizations(sql),
    jobs: new PostgresJobs(sql),
    webhooks: new PostgresWebhooks(sql, presence),
    deliveries: new PostgresDeliveries(sql, outbox),
    schema: new PostgresSchema(sql),
    backupSchedules: new PostgresBackupSchedules(sql),
    backups: new PostgresBackups(sql),
    intelligence: new PostgresIntelligence(sql),
    async ping() {
      await sql`SELECT 1`;
    },
    pool: () => (sql as unknown as { poolState(): PoolState }).poolState(),
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
