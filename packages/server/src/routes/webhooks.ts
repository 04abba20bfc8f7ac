import { checkCollectionName, type webhookRoutes } from '@dataplatform/contract';
import type { RouteHandlers } from '../http/route-call.js';
import { rejectViolation } from '../http/validate.js';
import type { WebhookService } from '../webhooks/service.js';
import type { EventStreams } from '../webhooks/stream.js';

/** The webhook routes (`/api/v1/data/webhooks/*`) over the webhook service and its event streams. */
export function webhookHandlers(
  webhooks: WebhookService,
  streams: EventStreams,
): RouteHandlers<typeof webhookRoutes> {
  return {
    'webhooks.create': ({ principal, body }) => {
      // A reserved name is no collection: a subscription to it could never receive an event.
      if (body.collection !== undefined) rejectViolation(checkCollectionName(body.collection));
      return webhooks.create(principal.clusterId, body);
    },
    'webhooks.list': ({ principal }) => webhooks.list(principal.clusterId),
    'webhooks.delete': ({ principal, params }) => webhooks.delete(principal.clusterId, params.webhookId),
    'webhooks.rotateSecret': ({ principal, params, body }) =>
      webhooks.rotateSecret(principal.clusterId, params.webhookId, body.secret),
    'webhooks.deliveries': ({ principal, params, query }) =>
      webhooks.deliveries(principal.clusterId, params.webhookId, query),
    'webhooks.attempts': ({ principal, params }) =>
      webhooks.attempts(principal.clusterId, params.webhookId, params.deliveryId),
    'webhooks.resend': ({ principal, params }) =>
      webhooks.resend(principal.clusterId, params.webhookId, params.deliveryId),
    'webhooks.test': ({ principal, params, body }) =>
      webhooks.test(principal.clusterId, params.webhookId, body),
    'webhooks.stream': async ({ principal, params, request, reply }) => {
      const subscription = await webhooks.subscription(principal.clusterId, params.webhookId);
      // The stream takes the reply over; nothing is left to send.
      await streams.serve(request, reply, subscription);
      return undefined;
    },
  };
}
