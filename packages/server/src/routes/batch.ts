import type { batchRoutes } from '@dataplatform/contract';
import { grantedScopes } from '../auth/authenticate.js';
import type { RouteHandlers } from '../http/route-call.js';
import type { BatchService } from '../services/batch.js';

/**
 * `POST /api/v1/data/batch`. Its body stays text (the route has a body limit of its own): the service parses it,
 * off the event loop when it is large, and checks each operation's scope once the body is read.
 */
export function batchHandlers(batches: BatchService): RouteHandlers<typeof batchRoutes> {
  return {
    'data.batch': ({ principal, body, idempotency }) =>
      batches.run(principal.clusterId, body ?? '', grantedScopes(principal), idempotency),
  };
}
