import { MetricSeries, MetricsQuery, MetricsSummary, MetricsSummaryQuery } from '../schemas/metrics.js';
import type { RouteDefinition } from './types.js';

const tag = 'metrics';

/** Request metrics of a cluster under /api/metrics. Session token only. */
export const metricsRoutes = [
  {
    id: 'metrics.get',
    method: 'GET',
    path: '/api/metrics',
    tag,
    summary: 'Request metrics of a cluster',
    description:
      "Requests, errors, p50/p95/p99 latency and bytes in and out of a cluster's requests (or of one key's), per minute, hour or day. Percentiles come from HDR histograms merged across buckets and instances, never from averaging percentiles. Minute buckets are kept two days, hours 35 days, days 400 days. A cluster the user is no member of is 404 `not_found`; more than 1500 buckets is 400 `validation_error`.",
    auth: 'session',
    scopes: [],
    query: MetricsQuery,
    success: { status: 200, description: 'The series', schema: MetricSeries },
    errors: ['validation_error', 'not_found'],
  },
  {
    id: 'metrics.summary',
    method: 'GET',
    path: '/api/metrics/summary',
    tag,
    summary: "A cluster's totals",
    description:
      'Documents, storage, collections, keys, the share of finished webhook deliveries that succeeded, function runs and requests since midnight UTC.',
    auth: 'session',
    scopes: [],
    query: MetricsSummaryQuery,
    success: { status: 200, description: 'The totals', schema: MetricsSummary },
    errors: ['validation_error', 'not_found'],
  },
] as const satisfies readonly RouteDefinition[];
