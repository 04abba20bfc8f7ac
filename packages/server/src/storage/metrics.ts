import type { MetricInterval } from '@dataplatform/contract';

/** What one instance measured of one cluster (or one key of it) in one minute, handed to storage. */
export interface MetricDelta {
  clusterId: string;
  /** The key, or '' for every request to the cluster. */
  keyId: string;
  /** Start of the minute, in milliseconds since the epoch. */
  minute: number;
  requests: number;
  errors: number;
  bytesIn: number;
  bytesOut: number;
  /** Latencies as a stored HDR histogram (`metrics/latency-sketch.ts`). */
  sketch: string;
}

/** One stored bucket. */
export interface MetricBucket {
  t: number;
  requests: number;
  errors: number;
  bytesIn: number;
  bytesOut: number;
  sketch: string | null;
}

/** Counts that the summary reads beside the clusters' own. */
export interface ClusterTotals {
  collections: number;
  keys: number;
  deliveriesSucceeded: number;
  deliveriesFailed: number;
  functionInvocations: number;
}

/** What the operator's scrape reads of the database: the outbox and the jobs. */
export interface OperationalCounts {
  /** Webhook deliveries waiting for an attempt. */
  pendingDeliveries: number;
  /** The creation time of the oldest of them (ISO 8601), or null. */
  oldestPendingAt: string | null;
  /** Jobs by status. */
  jobs: Record<string, number>;
}

/** Request metrics in minute, hour and day buckets (`/api/metrics`). */
export interface MetricsStore {
  /**
   * Adds each delta to its minute, its hour and its day, in one transaction: counts are summed and histograms
   * merged with `merge`, so instances that flush the same bucket add up.
   */
  add(deltas: readonly MetricDelta[], merge: (a: string | null, b: string) => string): Promise<void>;
  /** Buckets of one size from `from` (inclusive) to `to` (exclusive), oldest first. */
  series(
    clusterId: string,
    keyId: string,
    interval: MetricInterval,
    from: number,
    to: number,
  ): Promise<MetricBucket[]>;
  /** Removes buckets of this size that started before `before`; answers how many. */
  purge(interval: MetricInterval, before: number): Promise<number>;
  totals(clusterId: string): Promise<ClusterTotals>;
  /** The outbox's depth and age, and the jobs by status, over every cluster. */
  operational(): Promise<OperationalCounts>;
}
