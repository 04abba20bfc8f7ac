import type { AccountStore } from './accounts.js';
import type { AuthChanges } from './auth-cache.js';
import type { BackupScheduleStore } from './backup-schedules.js';
import type { BackupStore } from './backups.js';
import type { BillingStore } from './billing.js';
import type { ClusterStore } from './clusters.js';
import type { DeliveryStore } from './deliveries.js';
import type { DeviceAuthorizationStore } from './device-authorizations.js';
import type { DocumentStore } from './documents.js';
import type { FunctionStore } from './functions.js';
import type { IdempotencyStore } from './idempotency.js';
import type { IntelligenceStore } from './intelligence.js';
import type { JobStore } from './jobs.js';
import type { EngineKeyStore, KeyStore } from './keys.js';
import type { MetricsStore } from './metrics.js';
import type { NotificationStore } from './notifications.js';
import type { QueryStore } from './query.js';
import type { RequestLogStore } from './request-logs.js';
import type { RobotStore } from './robots.js';
import type { SchemaStore } from './schema.js';
import type { ServerSecretStore } from './secrets.js';
import type { SessionStore } from './sessions.js';
import type { UserSettingsStore } from './settings.js';
import type { SignInStore } from './sign-in.js';
import type { TaskStore } from './tasks.js';
import type { TriggerStore } from './triggers.js';
import type { KeyUsageStore } from './usage.js';
import type { WebhookStore } from './webhooks.js';

/** Connections of one instance's pool by state, and the queries waiting for one. */
export interface PoolState {
  max: number;
  idle: number;
  busy: number;
  /** Held by a transaction or `sql.reserve()` between its statements. */
  reserved: number;
  connecting: number;
  waiting: number;
}

/**
 * The one interface the server talks to: every store by name, each described in its own file beside the engines'
 * files of the same name (`keys.ts`, `sqlite/keys.ts`, `postgres/keys.ts`).
 */
export interface Storage {
  readonly engine: 'sqlite' | 'postgres';
  readonly documents: DocumentStore;
  readonly idempotency: IdempotencyStore;
  readonly keys: KeyStore;
  readonly usage: KeyUsageStore;
  readonly robots: RobotStore;
  readonly accounts: AccountStore;
  /** Trials, metered usage, payg charges, credits and Stripe events. */
  readonly billing: BillingStore;
  /** Clusters, their members and their deletion. */
  readonly clusters: ClusterStore;
  readonly tasks: TaskStore;
  readonly queries: QueryStore;
  readonly notifications: NotificationStore;
  readonly sessions: SessionStore;
  /** Every answered request, for `/api/logs/requests`. */
  readonly requestLogs: RequestLogStore;
  /** Request metrics in minute, hour and day buckets. */
  readonly metrics: MetricsStore;
  /** Account settings: time zone, session lifetime, default cluster (and the name and allowlist they change). */
  readonly settings: UserSettingsStore;
  readonly secrets: ServerSecretStore;
  readonly signIn: SignInStore;
  readonly deviceAuthorizations: DeviceAuthorizationStore;
  readonly jobs: JobStore;
  /** Webhook subscriptions. */
  readonly webhooks: WebhookStore;
  /** Webhook deliveries (written by document writes through the outbox) and their attempts. */
  readonly deliveries: DeliveryStore;
  /** Validators of collections and the collection list. */
  readonly schema: SchemaStore;
  /** Backups of clusters, the snapshot a backup reads and the swap a restore makes. */
  readonly backups: BackupStore;
  readonly backupSchedules: BackupScheduleStore;
  /** Datasets, their rows and trained models of the intelligence engine. */
  readonly intelligence: IntelligenceStore;
  /** Serverless functions and their invocations. */
  readonly functions: FunctionStore;
  /** Triggers (document events and schedules) and their runs. */
  readonly triggers: TriggerStore;
  /**
   * Calls `listener` after every change to keys, sessions' clusters, roles or billing that could alter what
   * authentication decides, on this instance or another (see `auth-cache.ts`). Returns a function that stops it.
   */
  onAuthChange(listener: () => void): () => void;
  /** Cheap round trip to the database, for readiness checks. */
  ping(): Promise<void>;
  /** The connection pool's state for the operator's scrape; undefined where the engine has no pool (SQLite). */
  pool?(): PoolState;
  close(): Promise<void>;
}

/** What an engine opens: its own stores, which `withAuthCache` (`cached-stores.ts`) turns into `Storage`. */
export interface EngineStorage extends Omit<Storage, 'keys' | 'onAuthChange'> {
  readonly keys: EngineKeyStore;
  /** How this engine's instances hear of each other's writes that change what authentication decides. */
  readonly authChanges: AuthChanges;
}
