import { batchRoutes, mayReadDocuments } from '@dataplatform/contract';
import type { FastifyInstance } from 'fastify';
import { type Authenticator, grantedScopes } from '../auth/authenticate.js';
import { keepBodyAsText } from '../http/json-body.js';
import type { BatchService } from '../services/batch.js';
import { idempotencyContext } from '../services/idempotency.js';
import { batchReceiptText } from '../services/write-receipts.js';

/**
 * Registers `POST /api/v1/data/batch`, with its own body limit (room for 1000 ordinary documents). The body
 * reaches the service as text: the service parses it, off the event loop when it is large.
 */
export function registerBatch(
  app: FastifyInstance,
  auth: Authenticator,
  batches: BatchService,
  bodyLimit: number,
): void {
  const [route] = batchRoutes;
  app.register(async (scope) => {
    keepBodyAsText(scope);
    scope.route({
      method: route.method,
      url: route.path,
      bodyLimit,
      // The route needs no scope of its own: each operation's scope is checked once the body is read.
      onRequest: async (request, reply) => {
        request.principal = await auth.authenticate(request, reply, route.scopes);
      },
      handler: async (request, reply) => {
        const principal = request.principal!;
        const idem = idempotencyContext(
          principal.clusterId,
          request.headers['idempotency-key'],
          request.method,
          request.url.split('?')[0]!,
          request.rawBody ?? '',
        );
        const granted = grantedScopes(principal);
        const answer = await batches.run(principal.clusterId, request.rawBody ?? '', granted, idem);
        reply.type('application/json; charset=utf-8');
        if (answer.replayed) reply.header('idempotent-replayed', 'true');
        // A caller that may write but not read gets its documents' system fields only.
        const body = mayReadDocuments(granted) ? answer.body : batchReceiptText(answer.body);
        return reply.code(answer.status).send(body);
      },
    });
  });
}
