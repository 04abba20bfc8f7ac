import {
  MAX_METRIC_POINTS,
  METRIC_BUCKET_MS,
  type MetricSeries,
  type MetricsQuery,
  type MetricsSummary,
} from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import { percentilesOf } from '../metrics/latency-sketch.js';
import type { MetricsRecorder } from '../metrics/recorder.js';
import type { Storage } from '../storage/types.js';
import type { Clock } from '../webhooks/clock.js';
import type { ClusterAccess } from './cluster-access.js';
import type { ClusterService } from './clusters.js';

/** The default span of a query without `from`: an hour of minutes, a day of hours, 30 days of days. */
const DEFAULT_SPAN = { minute: 3_600_000, hour: 86_400_000, day: 30 * 86_400_000 } as const;

/** Reads request metrics and a cluster's totals for its members. */
export class MetricsService {
  constructor(
    private readonly storage: Storage,
    private readonly access: ClusterAccess,
    private readonly clusters: ClusterService,
    private readonly clock: Clock,
    /** This instance's counts not yet written, flushed before a read so that an answer includes them. */
    private readonly recorder: MetricsRecorder | undefined,
  ) {}

  async series(userId: string, query: MetricsQuery): Promise<MetricSeries> {
    await this.access.require(userId, query.clusterId, 'read');
    const size = METRIC_BUCKET_MS[query.interval];
    const to = query.to === undefined ? this.clock.now() : Date.parse(query.to);
    const from = query.from === undefined ? to - DEFAULT_SPAN[query.interval] : Date.parse(query.from);
    if (from > to)
      throw new ApiError('validation_error', 'Invalid query field "from": it comes after "to"', {
        in: 'query',
        field: 'from',
      });
    if ((to - from) / size > MAX_METRIC_POINTS)
      throw new ApiError(
        'validation_error',
        `Invalid query: from "from" to "to" there are more than ${MAX_METRIC_POINTS} buckets of a ${query.interval}; choose a larger interval`,
        { in: 'query', field: 'interval' },
      );
    await this.recorder?.flush();
    const start = from - (from % size);
    const rows = await this.storage.metrics.series(
      query.clusterId,
      query.keyId ?? '',
      query.interval,
      start,
      to,
    );
    return {
      interval: query.interval,
      series: rows.map((row) => ({
        t: new Date(row.t).toISOString(),
        requests: row.requests,
        errors: row.errors,
        ...percentilesOf(row.sketch),
        bytesIn: row.bytesIn,
        bytesOut: row.bytesOut,
      })),
    };
  }

  async summary(userId: string, clusterId: string): Promise<MetricsSummary> {
    const cluster = await this.clusters.get(userId, clusterId);
    await this.recorder?.flush();
    const now = this.clock.now();
    const today = now - (now % 86_400_000);
    const [totals, [day]] = await Promise.all([
      this.storage.metrics.totals(clusterId),
      this.storage.metrics.series(clusterId, '', 'day', today, today + 1),
    ]);
    const finished = totals.deliveriesSucceeded + totals.deliveriesFailed;
    return {
      documents: cluster.documentCount,
      storageBytes: cluster.storageBytes,
      collections: totals.collections,
      keys: totals.keys,
      webhookSuccessRate: finished === 0 ? null : totals.deliveriesSucceeded / finished,
      functionInvocations: totals.functionInvocations,
      requestsToday: day?.requests ?? 0,
    };
  }
}
