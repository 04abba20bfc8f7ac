import { z } from 'zod';
import { Timestamp } from './common.js';

/** Bucket sizes of the request metrics, and how long each is kept. */
export const METRIC_INTERVALS = ['minute', 'hour', 'day'] as const;
/** A bucket size of the request metrics. */
export type MetricInterval = (typeof METRIC_INTERVALS)[number];
/** Milliseconds per bucket. */
export const METRIC_BUCKET_MS: Record<MetricInterval, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};
/** How long buckets of each size are kept: minutes two days, hours 35 days, days 400 days. */
export const METRIC_RETENTION_MS: Record<MetricInterval, number> = {
  minute: 2 * 86_400_000,
  hour: 35 * 86_400_000,
  day: 400 * 86_400_000,
};
/** Most buckets one answer may hold. */
export const MAX_METRIC_POINTS = 1500;

/** Query of the request metrics. */
export const MetricsQuery = z.object({
  clusterId: z.string().min(1).max(128).meta({ description: 'The cluster; one the user is a member of' }),
  from: Timestamp.optional().meta({
    description: 'First instant; one hour (minute), a day (hour) or 30 days (day) before `to` by default',
  }),
  to: Timestamp.optional().meta({ description: 'Last instant (exclusive); now by default' }),
  interval: z.enum(METRIC_INTERVALS).default('minute').meta({ description: 'Bucket size' }),
  keyId: z.string().min(1).max(128).optional().meta({ description: 'Only requests made with this API key' }),
});

/** One bucket of request metrics. */
export const MetricPoint = z
  .object({
    t: Timestamp.meta({ description: 'Start of the bucket' }),
    requests: z.number().int().min(0),
    errors: z.number().int().min(0).meta({ description: 'Answers with a status of 400 or more' }),
    p50Ms: z
      .number()
      .min(0)
      .meta({ description: 'Median duration, from a merged HDR histogram (about 1 % error)' }),
    p95Ms: z.number().min(0),
    p99Ms: z.number().min(0),
    bytesIn: z.number().int().min(0).meta({ description: 'Request bodies, by Content-Length' }),
    bytesOut: z.number().int().min(0).meta({ description: 'Answer bodies, by Content-Length' }),
  })
  .meta({ id: 'MetricPoint', description: 'Requests, errors, latency percentiles and bytes of one bucket.' });

/** The request metrics of a cluster (or one of its keys). */
export const MetricSeries = z
  .object({
    interval: z.enum(METRIC_INTERVALS),
    series: z.array(MetricPoint).meta({ description: 'Buckets with traffic, oldest first' }),
  })
  .meta({ id: 'MetricSeries', description: 'Request metrics per bucket.' });

/** Query of the summary. */
export const MetricsSummaryQuery = z.object({
  clusterId: z.string().min(1).max(128).meta({ description: 'The cluster; one the user is a member of' }),
});

/** What a cluster holds and did, at a glance. */
export const MetricsSummary = z
  .object({
    documents: z.number().int().min(0),
    storageBytes: z.number().int().min(0),
    collections: z.number().int().min(0),
    keys: z.number().int().min(0),
    webhookSuccessRate: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .meta({ description: 'Succeeded over finished deliveries; null when none finished' }),
    functionInvocations: z.number().int().min(0).meta({ description: 'Runs of its functions, all kept' }),
    requestsToday: z.number().int().min(0).meta({ description: 'Requests since midnight UTC' }),
  })
  .meta({ id: 'MetricsSummary', description: "A cluster's totals." });

/** Query of the request metrics. */
export type MetricsQuery = z.infer<typeof MetricsQuery>;
/** Request metrics per bucket. */
export type MetricSeries = z.infer<typeof MetricSeries>;
/** One bucket. */
export type MetricPoint = z.infer<typeof MetricPoint>;
/** A cluster's totals. */
export type MetricsSummary = z.infer<typeof MetricsSummary>;
