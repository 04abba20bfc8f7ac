import { Resolver } from 'node:dns';
import {
  BATCH_BODY_LIMIT,
  DEFAULT_LOG_RETENTION_DAYS,
  type PriceTable,
  parseAllowlistEntry,
} from '@dataplatform/contract';
import { type IdentityProviderSettings, loadProviderSettings } from './auth/providers/settings.js';
import { loadPaymentSettings, loadPrices, type PaymentSettings } from './billing-settings.js';
import { integer, listenAddress } from './listen-address.js';
import { DEFAULT_RETRY_SCHEDULE, parseSchedule } from './webhooks/schedule.js';

/** Per-address limits of the sign-in, sign-up and password-reset routes, and the lock after failed sign-ins. */
export interface AuthLimits {
  signinsPerMinute: number;
  signupsPerHour: number;
  resetRequestsPerHour: number;
  /** Failed sign-ins in a row for one e-mail from one address that lock the pair. */
  lockAfterFailures: number;
  lockMinutes: number;
}

/** Settings of the reference server, read from the environment. */
export interface ServerConfig {
  /** Regions a cluster can be created in (`DATAPLATFORM_REGIONS`, comma-separated; `local` by default). */
  regions: string[];
  port: number;
  host: string;
  /** Directory of the embedded SQLite database, or `:memory:`. */
  dataDir: string;
  /**
   * Where backup archives go: `s3://bucket/prefix` (`DATAPLATFORM_BACKUP_URL`) for S3-compatible storage, with the
   * usual AWS variables; unset, under `<data dir>/backups`.
   */
  backupUrl: string | undefined;
  /** Endpoint of an S3-compatible service (`DATAPLATFORM_BACKUP_S3_ENDPOINT`, e.g. MinIO); AWS's own when unset. */
  backupS3Endpoint: string | undefined;
  /** PostgreSQL address; when set, the server stores everything there instead of SQLite. */
  databaseUrl: string | undefined;
  /** PostgreSQL connections per instance. */
  databasePoolSize: number;
  /** Redis address; when set, rate-limit counters are shared by every instance. */
  redisUrl: string | undefined;
  /** Largest request body in bytes. */
  bodyLimit: number;
  /** Change streams and WebSocket subscriptions one key (or one signed-in user) may have open at once, per instance. */
  maxStreams: number;
  /** Largest body of the batch route in bytes (16 MiB by default: 1000 ordinary documents). */
  batchBodyLimit: number;
  /** `development` (the default) or `production`. */
  mode: 'development' | 'production';
  logLevel: string;
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /** Bytes of the SQLite file mapped into memory for reads. */
  sqliteMmapSize: number;
  /** Key that signs session tokens; required in production, else made once and kept in the database. */
  sessionSecret: string | undefined;
  /** Lifetime of a session in seconds. */
  sessionTtlSeconds: number;
  /** Bearer token that lets addresses other than loopback scrape `/metrics` (`DATAPLATFORM_METRICS_TOKEN`). */
  metricsToken: string | undefined;
  /** Days the request log keeps an entry (`DATAPLATFORM_LOG_RETENTION_DAYS`, 7 by default). */
  logRetentionDays: number;
  /** Proxies (addresses or CIDR ranges) whose X-Forwarded-For names the client; none by default. */
  trustedProxies: string[];
  /** SMTP server, `smtp://user:pass@host:port` or `smtps://…`; without it mail goes to `<data dir>/outbox.jsonl`. */
  smtpUrl: string | undefined;
  /** Sender of the server's e-mail. */
  mailFrom: string;
  /** Address of the web app that reset links point to; the server's own address when unset. */
  appUrl: string | undefined;
  authLimits: AuthLimits;
  /**
   * The server's address as browsers reach it (provider callbacks, the passkey origin and relying-party id);
   * the listening address when unset.
   */
  publicUrl: string | undefined;
  /** Device sign-in (RFC 8628): how long a code lives and the least wait between polls, in seconds. */
  deviceSignIn: { codeTtlSeconds: number; pollIntervalSeconds: number };
  /** Relying-party id of passkeys; the host name of the public address when unset. */
  webauthnRpId: string | undefined;
  /** Origins passkey ceremonies may come from; the public address's origin when empty. */
  webauthnOrigins: string[];
  /** Google and GitHub sign-in; a provider without client credentials is off. */
  identityProviders: IdentityProviderSettings;
  /** Where log lines go instead of standard output (for embedding and tests); not read from the environment. */
  logStream?: { write(line: string): void };
  /**
   * Key material (at least 32 characters) that encrypts webhook signing secrets. Without it, a key is made on
   * first start and kept in the data directory; several instances on PostgreSQL must share one.
   */
  encryptionKey: string | undefined;
  /** Webhook receivers in private, link-local and loopback ranges are accepted. */
  webhookAllowPrivate: boolean;
  /** Webhook receivers on loopback addresses are accepted (by default in development mode only). */
  webhookAllowLoopback: boolean;
  /** Delays between a failed delivery attempt and the next, in milliseconds. */
  webhookRetrySchedule: readonly number[];
  /** How often each instance looks for due deliveries when nothing wakes it, in milliseconds. */
  webhookPollInterval: number;
  /** Deliveries each instance sends at once. */
  webhookConcurrency: number;
  /** What the server charges (`DATAPLATFORM_PRICES`, JSON merged over the documented defaults). */
  prices: PriceTable;
  /** Stripe: payments are on only when both its secret key and its webhook secret are set. */
  payments: PaymentSettings;
  /** DNS servers that resolve receivers' names (`192.0.2.53`, `[2001:db8::53]:53`); the system's when empty. */
  webhookDnsServers: string[];
  /** Longest a lookup of a receiver's name may take, in milliseconds. */
  webhookDnsTimeout: number;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function flag(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new Error(`${name} must be true or false, got "${value}"`);
}

function encryptionKey(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < 32)
    throw new Error(
      'DATAPLATFORM_ENCRYPTION_KEY must have at least 32 characters, e.g. `openssl rand -base64 32`',
    );
  return value;
}

/** `DATAPLATFORM_BACKUP_URL`, when it is an `s3://bucket[/prefix]` address; a start with another one fails. */
function backupUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(value))
    throw new Error('DATAPLATFORM_BACKUP_URL must be s3://bucket or s3://bucket/prefix');
  return value;
}

/** Reads the server settings from environment variables (documented in docs/deployment.md). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const synchronous = (env.DATAPLATFORM_SQLITE_SYNCHRONOUS ?? 'FULL').toUpperCase();
  if (synchronous !== 'FULL' && synchronous !== 'NORMAL')
    throw new Error('DATAPLATFORM_SQLITE_SYNCHRONOUS must be FULL or NORMAL');
  const mode = env.NODE_ENV === 'production' ? 'production' : 'development';
  return {
    ...listenAddress(env),
    dataDir: env.DATAPLATFORM_DATA_DIR || './.dataplatform',
    regions: list(env.DATAPLATFORM_REGIONS).length > 0 ? list(env.DATAPLATFORM_REGIONS) : ['local'],
    databaseUrl: env.DATABASE_URL || undefined,
    backupUrl: backupUrl(env.DATAPLATFORM_BACKUP_URL),
    backupS3Endpoint: env.DATAPLATFORM_BACKUP_S3_ENDPOINT || undefined,
    databasePoolSize: integer(env.DATABASE_POOL_SIZE, 10, 'DATABASE_POOL_SIZE'),
    redisUrl: env.REDIS_URL || undefined,
    bodyLimit: integer(env.DATAPLATFORM_BODY_LIMIT, 1024 * 1024, 'DATAPLATFORM_BODY_LIMIT'),
    maxStreams: integer(env.DATAPLATFORM_MAX_STREAMS, 100, 'DATAPLATFORM_MAX_STREAMS'),
    batchBodyLimit: integer(
      env.DATAPLATFORM_BATCH_BODY_LIMIT,
      BATCH_BODY_LIMIT,
      'DATAPLATFORM_BATCH_BODY_LIMIT',
    ),
    mode,
    logLevel: env.LOG_LEVEL || 'info',
    sqliteSynchronous: synchronous,
    sqliteMmapSize: integer(env.DATAPLATFORM_SQLITE_MMAP_SIZE, 1024 ** 3, 'DATAPLATFORM_SQLITE_MMAP_SIZE'),
    sessionSecret: env.DATAPLATFORM_SESSION_SECRET || undefined,
    sessionTtlSeconds: integer(env.DATAPLATFORM_SESSION_TTL, 7 * 86_400, 'DATAPLATFORM_SESSION_TTL'),
    metricsToken: env.DATAPLATFORM_METRICS_TOKEN || undefined,
    logRetentionDays: integer(
      env.DATAPLATFORM_LOG_RETENTION_DAYS,
      DEFAULT_LOG_RETENTION_DAYS,
      'DATAPLATFORM_LOG_RETENTION_DAYS',
    ),
    trustedProxies: trustedProxies(env.DATAPLATFORM_TRUSTED_PROXIES),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.SMTP_FROM || 'dataplatform <no-reply@localhost>',
    appUrl: env.DATAPLATFORM_APP_URL || undefined,
    authLimits: {
      signinsPerMinute: integer(env.DATAPLATFORM_SIGNIN_LIMIT, 30, 'DATAPLATFORM_SIGNIN_LIMIT'),
      signupsPerHour: integer(env.DATAPLATFORM_SIGNUP_LIMIT, 20, 'DATAPLATFORM_SIGNUP_LIMIT'),
      resetRequestsPerHour: integer(env.DATAPLATFORM_RESET_LIMIT, 5, 'DATAPLATFORM_RESET_LIMIT'),
      lockAfterFailures: integer(
        env.DATAPLATFORM_SIGNIN_LOCK_FAILURES,
        10,
        'DATAPLATFORM_SIGNIN_LOCK_FAILURES',
      ),
      lockMinutes: integer(env.DATAPLATFORM_SIGNIN_LOCK_MINUTES, 15, 'DATAPLATFORM_SIGNIN_LOCK_MINUTES'),
    },
    publicUrl: env.DATAPLATFORM_PUBLIC_URL || undefined,
    deviceSignIn: {
      codeTtlSeconds: integer(env.DATAPLATFORM_DEVICE_CODE_TTL, 600, 'DATAPLATFORM_DEVICE_CODE_TTL'),
      pollIntervalSeconds: integer(
        env.DATAPLATFORM_DEVICE_POLL_INTERVAL,
        5,
        'DATAPLATFORM_DEVICE_POLL_INTERVAL',
      ),
    },
    webauthnRpId: env.DATAPLATFORM_WEBAUTHN_RP_ID || undefined,
    webauthnOrigins: list(env.DATAPLATFORM_WEBAUTHN_ORIGINS),
    identityProviders: loadProviderSettings(env),
    encryptionKey: encryptionKey(env.DATAPLATFORM_ENCRYPTION_KEY),
    webhookAllowPrivate: flag(
      env.DATAPLATFORM_WEBHOOK_ALLOW_PRIVATE,
      false,
      'DATAPLATFORM_WEBHOOK_ALLOW_PRIVATE',
    ),
    // The development server accepts local receivers, so a receiver on the developer's machine just works.
    webhookAllowLoopback: flag(
      env.DATAPLATFORM_WEBHOOK_ALLOW_LOOPBACK,
      mode === 'development',
      'DATAPLATFORM_WEBHOOK_ALLOW_LOOPBACK',
    ),
    webhookRetrySchedule: env.DATAPLATFORM_WEBHOOK_RETRY_SCHEDULE
      ? parseSchedule(env.DATAPLATFORM_WEBHOOK_RETRY_SCHEDULE)
      : DEFAULT_RETRY_SCHEDULE,
    webhookPollInterval: integer(
      env.DATAPLATFORM_WEBHOOK_POLL_INTERVAL,
      1000,
      'DATAPLATFORM_WEBHOOK_POLL_INTERVAL',
    ),
    webhookConcurrency: Math.max(
      1,
      integer(env.DATAPLATFORM_WEBHOOK_CONCURRENCY, 32, 'DATAPLATFORM_WEBHOOK_CONCURRENCY'),
    ),
    webhookDnsServers: dnsServers(env.DATAPLATFORM_WEBHOOK_DNS_SERVERS),
    prices: loadPrices(env.DATAPLATFORM_PRICES),
    payments: loadPaymentSettings(env),
    webhookDnsTimeout: Math.max(
      1,
      integer(env.DATAPLATFORM_WEBHOOK_DNS_TIMEOUT, 5000, 'DATAPLATFORM_WEBHOOK_DNS_TIMEOUT'),
    ),
  };
}

function dnsServers(value: string | undefined): string[] {
  const servers = list(value);
  try {
    // The resolver's own check of the addresses, so a typo stops the start instead of every lookup.
    new Resolver().setServers(servers);
  } catch {
    throw new Error(
      `DATAPLATFORM_WEBHOOK_DNS_SERVERS must list IP addresses, optionally with a port (192.0.2.53:53, [2001:db8::53]:53), got "${value}"`,
    );
  }
  return servers;
}

function trustedProxies(value: string | undefined): string[] {
  const entries = list(value);
  const bad = entries.filter((entry) => parseAllowlistEntry(entry) === null);
  if (bad.length > 0)
    throw new Error(
      `DATAPLATFORM_TRUSTED_PROXIES must list addresses or CIDR ranges, got "${bad.join('", "')}"`,
    );
  return entries;
}
