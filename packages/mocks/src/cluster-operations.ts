import type { ClusterTier, clusterRoutes } from '@dataplatform/contract';
import type { Answer } from './answers.js';
import { planOf } from './clusters.js';
import type { Operation } from './document-operations.js';
import type { OperationInput } from './request-input.js';

type RouteId = (typeof clusterRoutes)[number]['id'];

type Call = OperationInput & { userId: string; id: string };

/** A cluster route: the session was checked before it, as on the server. */
function operation(
  run: (
    call: Call,
    clusters: import('./clusters.js').ClusterModel,
    plan: ReturnType<typeof planOf>,
  ) => unknown,
  status = 200,
): Operation {
  return (input): Answer => {
    const account = input.account;
    if (!account?.session) throw new Error('cluster routes need a session');
    const userId = account.session.userId;
    const plan = planOf(account.model.billing(userId));
    return {
      status,
      body: run({ ...input, userId, id: input.params.id ?? '' }, account.model.clusters, plan),
    };
  };
}

type Change = { name?: string; tier?: ClusterTier };

/** The behaviour of `/api/clusters/*`, as on the server. */
export const clusterOperations: Record<RouteId, Operation> = {
  'clusters.create': operation((c, m, p) => m.create(c.userId, p, c.body as Change & { name: string }), 201),
  'clusters.list': operation((c, m, p) => {
    const { limit, skip } = c.query as { limit: number; skip: number };
    return m.list(c.userId, p, limit, skip);
  }),
  'clusters.get': operation((c, m, p) => m.get(c.userId, p, c.id)),
  'clusters.update': operation((c, m, p) => m.update(c.userId, p, c.id, c.body as Change)),
  'clusters.pause': operation((c, m, p) => m.move(c.userId, p, c.id, 'paused')),
  'clusters.resume': operation((c, m, p) => m.move(c.userId, p, c.id, 'running')),
  'clusters.delete': operation((c, m, p) => m.delete(c.userId, p, c.id), 202),
};
