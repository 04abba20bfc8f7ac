import {
  clusterNotFound,
  MAX_METRIC_POINTS,
  METRIC_BUCKET_MS,
  type MetricsQuery,
  type metricsRoutes,
} from '@dataplatform/contract';
import { type Answer, ApiError } from './answers.js';
import { planOf } from './clusters.js';
import type { Operation } from './document-operations.js';

type RouteId = (typeof metricsRoutes)[number]['id'];

const DEFAULT_SPAN = { minute: 3_600_000, hour: 86_400_000, day: 30 * 86_400_000 } as const;

/**
 * `/api/metrics/*` with the server's checks: a cluster the user is a member of (404 otherwise) and at most
 * 1500 buckets. The mocks keep no metrics: the series is empty and the totals are the cluster's own.
 */
export const metricsOperations: Record<RouteId, Operation> = {
  'metrics.get': (input): Answer => {
    const account = input.account!;
    const userId = account.session!.userId;
    const query = input.query as MetricsQuery;
    member(account.model, userId, query.clusterId);
    const size = METRIC_BUCKET_MS[query.interval];
    const to = query.to === undefined ? Date.now() : Date.parse(query.to);
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
    return { status: 200, body: { interval: query.interval, series: [] } };
  },
  'metrics.summary': (input, _store, model): Answer => {
    const account = input.account!;
    const userId = account.session!.userId;
    const { clusterId } = input.query as { clusterId: string };
    member(account.model, userId, clusterId);
    return {
      status: 200,
      body: {
        documents: 0,
        storageBytes: 0,
        collections: 0,
        keys: model.keys.managed.list({ userId, robotId: null }).data.filter((k) => k.clusterId === clusterId)
          .length,
        webhookSuccessRate: null,
        functionInvocations: 0,
        requestsToday: 0,
      },
    };
  },
};

function member(accounts: import('./accounts.js').AccountModel, userId: string, clusterId: string): void {
  if (!accounts.clusters.membership(userId, planOf(accounts.billing(userId)), clusterId))
    throw new ApiError('not_found', clusterNotFound(clusterId).message, { id: clusterId });
}
