import { METRIC_BUCKET_MS, METRIC_INTERVALS, type MetricInterval } from '@dataplatform/contract';
import type { Sql } from 'postgres';
import type {
  ClusterTotals,
  MetricBucket,
  MetricDelta,
  MetricsStore,
  OperationalCounts,
} from '../metrics.js';

/** Request metrics on PostgreSQL. */
export class PostgresMetrics implements MetricsStore {
  constructor(private readonly sql: Sql) {}

  async add(deltas: readonly MetricDelta[], merge: (a: string | null, b: string) => string): Promise<void> {
    await this.sql.begin(async (tx) => {
      for (const d of deltas) {
        for (const interval of METRIC_INTERVALS) {
          const size = METRIC_BUCKET_MS[interval];
          const t = Math.floor(d.minute / size) * size;
          // The row is made first and then locked, so instances flushing the same bucket merge in turn.
          await tx`INSERT INTO metric_buckets (cluster_id, key_id, interval, t, requests, errors, bytes_in, bytes_out)
                   VALUES (${d.clusterId}, ${d.keyId}, ${interval}, ${t}, 0, 0, 0, 0) ON CONFLICT DO NOTHING`;
          const [row] = await tx<{ sketch: string | null }[]>`
            SELECT sketch FROM metric_buckets
            WHERE cluster_id = ${d.clusterId} AND key_id = ${d.keyId} AND interval = ${interval} AND t = ${t}
            FOR UPDATE`;
          await tx`UPDATE metric_buckets SET requests = requests + ${d.requests}, errors = errors + ${d.errors},
                     bytes_in = bytes_in + ${d.bytesIn}, bytes_out = bytes_out + ${d.bytesOut},
                     sketch = ${merge(row?.sketch ?? null, d.sketch)}
                   WHERE cluster_id = ${d.clusterId} AND key_id = ${d.keyId} AND interval = ${interval} AND t = ${t}`;
        }
      }
    });
  }

  async series(clusterId: string, keyId: string, interval: MetricInterval, from: number, to: number) {
    const rows = await this.sql<
      (Omit<MetricBucket, 't' | 'requests' | 'errors' | 'bytesIn' | 'bytesOut'> & Record<string, string>)[]
    >`
      SELECT t, requests, errors, bytes_in AS "bytesIn", bytes_out AS "bytesOut", sketch FROM metric_buckets
      WHERE cluster_id = ${clusterId} AND key_id = ${keyId} AND interval = ${interval} AND t >= ${from} AND t < ${to}
      ORDER BY t`;
    return rows.map(
      (r): MetricBucket => ({
        t: Number(r.t),
        requests: Number(r.requests),
        errors: Number(r.errors),
        bytesIn: Number(r.bytesIn),
        bytesOut: Number(r.bytesOut),
        sketch: r.sketch ?? null,
      }),
    );
  }

  async purge(interval: MetricInterval, before: number): Promise<number> {
    return (await this.sql`DELETE FROM metric_buckets WHERE interval = ${interval} AND t < ${before}`).count;
  }

  async totals(clusterId: string): Promise<ClusterTotals> {
    const [row] = await this.sql<Record<string, number>[]>`SELECT
      (SELECT count(*)::int FROM collections WHERE cluster_id = ${clusterId}) AS collections,
      (SELECT count(*)::int FROM api_keys WHERE cluster_id = ${clusterId}) AS keys,
      (SELECT count(*)::int FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE s.cluster_id = ${clusterId} AND d.status = 'succeeded') AS succeeded,
      (SELECT count(*)::int FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE s.cluster_id = ${clusterId} AND d.status = 'failed') AS failed,
      (SELECT count(*)::int FROM function_invocations i JOIN functions f ON f.id = i.function_id
        WHERE f.cluster_id = ${clusterId}) AS invocations`;
    return {
      collections: row!.collections!,
      keys: row!.keys!,
      deliveriesSucceeded: row!.succeeded!,
      deliveriesFailed: row!.failed!,
      functionInvocations: row!.invocations!,
    };
  }

  async operational(): Promise<OperationalCounts> {
    const [[pending], jobs] = await Promise.all([
      this.sql<{ n: number; oldest: string | null }[]>`
        SELECT count(*)::int AS n, min(created_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'`,
      this.sql<{ status: string; n: number }[]>`SELECT status, count(*)::int AS n FROM jobs GROUP BY status`,
    ]);
    return {
      pendingDeliveries: pending!.n,
      oldestPendingAt: pending!.oldest,
      jobs: Object.fromEntries(jobs.map((row) => [row.status, row.n])),
    };
  }
}
