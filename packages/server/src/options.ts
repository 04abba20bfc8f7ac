import type { RateTier } from '@dataplatform/contract';
import type { FrontDoor } from './http/front-door.js';
import type { Clock } from './webhooks/clock.js';

/**
 * Settings that only code can give the server (tests and benchmarks), deliberately not read from the
 * environment: a production deployment cannot switch them on by mistake.
 */
export interface ServerOptions {
  /**
   * Benchmarks only: turns authentication, rate limiting and usage history off; every data request acts on this
   * cluster with every scope.
   */
  unauthenticatedCluster?: string;
  /**
   * Benchmarks only: false skips the cluster-status and role checks of API keys on data routes, so that
   * `pnpm bench:clusters` can measure what they cost beside a server that makes them.
   */
  clusterChecks?: boolean;
  /** Requests per minute per key by tier, instead of API.md's table. */
  rateLimits?: Readonly<Record<RateTier, number | null>>;
  /** How often the usage history is written, in milliseconds (default 100). */
  usageFlushIntervalMs?: number;
  /** The clock of the webhook machinery and of billing (tests move it forward). */
  clock?: Clock;
  /** Benchmarks only: false turns usage metering off, so that `GET` can be measured with and without it. */
  metering?: boolean;
  /**
   * Benchmarks only: false turns the request log and the request metrics off, so that `pnpm bench:observability`
   * can measure what they cost beside a server that keeps them.
   */
  observability?: boolean;
  /** How often the request log is written, in milliseconds (default 200). */
  requestLogFlushIntervalMs?: number;
  /** How often metered usage is written, in milliseconds (default 1000). */
  meteringFlushIntervalMs?: number;
  /** PostgreSQL: how long this instance trusts an answer about a cluster's subscriptions (default 500 ms). */
  presenceLeaseMs?: number;
  /**
   * A listening socket opened before the server's modules were loaded (`bin.ts`); `startServer` serves on it
   * instead of opening one on the configured port and host.
   */
  frontDoor?: FrontDoor;
}
