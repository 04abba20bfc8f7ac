import { METRIC_BUCKET_MS, METRIC_INTERVALS, type MetricInterval } from '@dataplatform/contract';
import type Database from 'better-sqlite3';
import type {
  ClusterTotals,
  MetricBucket,
  MetricDelta,
  MetricsStore,
  OperationalCounts,
} from '../metrics.js';
import { relaxed, synchronousOf } from './relaxed.js';

/** Request metrics on SQLite. */
export class SqliteMetrics implements MetricsStore {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      read: db.prepare<[string, string, string, number], { sketch: string | null }>(
        'SELECT sketch FROM metric_buckets WHERE cluster_id = ? AND key_id = ? AND interval = ? AND t = ?',
      ),
      upsert: db.prepare(`
        INSERT INTO metric_buckets (cluster_id, key_id, interval, t, requests, errors, bytes_in, bytes_out, sketch)
        VALUES (@clusterId, @keyId, @interval, @t, @requests, @errors, @bytesIn, @bytesOut, @sketch)
        ON CONFLICT (cluster_id, key_id, interval, t) DO UPDATE SET
          requests = requests + excluded.requests, errors = errors + excluded.errors,
          bytes_in = bytes_in + excluded.bytes_in, bytes_out = bytes_out + excluded.bytes_out,
          sketch = excluded.sketch`),
      series: db.prepare<[string, string, string, number, number], MetricBucket>(`
        SELECT t, requests, errors, bytes_in AS bytesIn, bytes_out AS bytesOut, sketch FROM metric_buckets
        WHERE cluster_id = ? AND key_id = ? AND interval = ? AND t >= ? AND t < ? ORDER BY t`),
      purge: db.prepare('DELETE FROM metric_buckets WHERE interval = ? AND t < ?'),
      collections: db.prepare<[string], { n: number }>(
        'SELECT COUNT(*) AS n FROM collections WHERE cluster_id = ?',
      ),
      keys: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM api_keys WHERE cluster_id = ?'),
      deliveries: db.prepare<[string], { status: string; n: number }>(`
        SELECT d.status, COUNT(*) AS n FROM webhook_deliveries d
        JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE s.cluster_id = ? AND d.status IN ('succeeded', 'failed') GROUP BY d.status`),
      pending: db.prepare<[], { n: number; oldest: string | null }>(
        "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'",
      ),
      jobs: db.prepare<[], { status: string; n: number }>(
        'SELECT status, COUNT(*) AS n FROM jobs GROUP BY status',
      ),
      invocations: db.prepare<[string], { n: number }>(`
        SELECT COUNT(*) AS n FROM function_invocations i JOIN functions f ON f.id = i.function_id
        WHERE f.cluster_id = ?`),
    };
  }

  async add(deltas: readonly MetricDelta[], merge: (a: string | null, b: string) => string): Promise<void> {
    // Bookkeeping, as the request log: not synced at each commit (`relaxed`).
    relaxed(
      this.db,
      this.db.transaction(() => {
        for (const d of deltas) {
          for (const interval of METRIC_INTERVALS) {
            const size = METRIC_BUCKET_MS[interval];
            const t = Math.floor(d.minute / size) * size;
            const before = this.stmt.read.get(d.clusterId, d.keyId, interval, t)?.sketch ?? null;
            this.stmt.upsert.run({ ...d, interval, t, sketch: merge(before, d.sketch) });
          }
        }
      }),
      synchronousOf(this.db),
    )();
  }

  async series(clusterId: string, keyId: string, interval: MetricInterval, from: number, to: number) {
    return this.stmt.series.all(clusterId, keyId, interval, from, to);
  }

  async purge(interval: MetricInterval, before: number): Promise<number> {
    return this.stmt.purge.run(interval, before).changes;
  }

  async totals(clusterId: string): Promise<ClusterTotals> {
    const deliveries = this.stmt.deliveries.all(clusterId);
    const count = (status: string) => deliveries.find((row) => row.status === status)?.n ?? 0;
    return {
      collections: this.stmt.collections.get(clusterId)!.n,
      keys: this.stmt.keys.get(clusterId)!.n,
      deliveriesSucceeded: count('succeeded'),
      deliveriesFailed: count('failed'),
      functionInvocations: this.stmt.invocations.get(clusterId)!.n,
    };
  }

  async operational(): Promise<OperationalCounts> {
    const pending = this.stmt.pending.get()!;
    return {
      pendingDeliveries: pending.n,
      oldestPendingAt: pending.oldest,
      jobs: Object.fromEntries(this.stmt.jobs.all().map((row) => [row.status, row.n])),
    };
  }
}
