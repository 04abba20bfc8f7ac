import type { MetricSeries, MetricsSummary } from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';

/** What `client.metrics.get` asks for. */
export interface MetricsParams {
  clusterId: string;
  interval?: 'minute' | 'hour' | 'day';
  /** ISO 8601 instants: from inclusive, to exclusive. */
  from?: string;
  to?: string;
  /** Only requests made with this API key. */
  keyId?: string;
}

/**
 * Request metrics and totals of a cluster, under `/api/metrics` (session token).
 * @example const { series } = await client.metrics.get({ clusterId, interval: 'hour' });
 */
export class Metrics extends APIResource {
  /** Requests, errors, p50/p95/p99 latency and bytes per minute, hour or day, oldest first. */
  get(params: MetricsParams, options?: RequestOptions): APIPromise<MetricSeries> {
    const { clusterId, interval, from, to, keyId } = params;
    return this._client.get('/api/metrics', { ...options, query: { clusterId, interval, from, to, keyId } });
  }

  /** Documents, storage, collections, keys, webhook success rate, function runs and requests today. */
  summary(clusterId: string, options?: RequestOptions): APIPromise<MetricsSummary> {
    return this._client.get('/api/metrics/summary', { ...options, query: { clusterId } });
  }
}
