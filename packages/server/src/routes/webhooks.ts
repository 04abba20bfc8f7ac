import {
  checkCollectionName,
  DeliveryParams,
  ListDeliveriesQuery,
  type RouteDefinition,
  WebhookCreate,
  WebhookParams,
  WebhookSecretRotate,
  WebhookTestEvent,
  webhookRoutes,
} from '@dataplatform/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../auth/authenticate.js';
import { ApiError } from '../http/errors.js';
import { rejectViolation, validate } from '../http/validate.js';
import type { WebhookService } from '../webhooks/service.js';
import type { EventStreams } from '../webhooks/stream.js';

type RouteId = (typeof webhookRoutes)[number]['id'];

interface Call {
  request: FastifyRequest;
  reply: FastifyReply;
  clusterId: string;
}

type Handler = (call: Call) => Promise<unknown>;

/** A JSON body that must be an object; a missing one counts as `{}` where every field is optional. */
function objectBody(body: unknown, emptyAllowed: boolean): unknown {
  if (body === undefined && emptyAllowed) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ApiError('invalid_body', 'Body must be a JSON object');
  return body;
}

function handlers(webhooks: WebhookService, streams: EventStreams): Record<RouteId, Handler> {
  const params = (request: FastifyRequest) => validate(WebhookParams, request.params, 'path');
  const deliveryParams = (request: FastifyRequest) => validate(DeliveryParams, request.params, 'path');
  return {
    'webhooks.create': ({ request, clusterId }) => {
      const input = validate(WebhookCreate, objectBody(request.body, false), 'body');
      // A reserved name is no collection: a subscription to it could never receive an event.
      if (input.collection !== undefined) rejectViolation(checkCollectionName(input.collection));
      return webhooks.create(clusterId, input);
    },
    'webhooks.list': ({ clusterId }) => webhooks.list(clusterId),
    'webhooks.delete': ({ request, clusterId }) => webhooks.delete(clusterId, params(request).webhookId),
    'webhooks.rotateSecret': ({ request, clusterId }) => {
      const { secret } = validate(WebhookSecretRotate, objectBody(request.body, true), 'body');
      return webhooks.rotateSecret(clusterId, params(request).webhookId, secret);
    },
    'webhooks.deliveries': ({ request, clusterId }) => {
      const query = validate(ListDeliveriesQuery, request.query, 'query');
      return webhooks.deliveries(clusterId, params(request).webhookId, query);
    },
    'webhooks.attempts': ({ request, clusterId }) => {
      const { webhookId, deliveryId } = deliveryParams(request);
      return webhooks.attempts(clusterId, webhookId, deliveryId);
    },
    'webhooks.resend': ({ request, clusterId }) => {
      const { webhookId, deliveryId } = deliveryParams(request);
      return webhooks.resend(clusterId, webhookId, deliveryId);
    },
    'webhooks.test': ({ request, clusterId }) => {
      const input = validate(WebhookTestEvent, objectBody(request.body, true), 'body');
      return webhooks.test(clusterId, params(request).webhookId, input);
    },
    'webhooks.stream': async ({ request, reply, clusterId }) => {
      const subscription = await webhooks.subscription(clusterId, params(request).webhookId);
      await streams.serve(request, reply, subscription);
      return undefined;
    },
  };
}

/** Registers every webhook route of the contract; a route without a handler fails at start-up. */
export function registerWebhooks(
  app: FastifyInstance,
  auth: Authenticator,
  webhooks: WebhookService,
  streams: EventStreams,
): void {
  const byId = handlers(webhooks, streams);
  for (const route of webhookRoutes as readonly RouteDefinition[]) {
    const handle = byId[route.id as RouteId];
    if (!handle) throw new Error(`No handler for route ${route.id}`);
    app.route({
      method: route.method,
      url: route.path.replace(/\{(\w+)\}/g, ':$1'),
      onRequest: async (request, reply) => {
        request.principal = await auth.authenticate(request, reply, route.scopes);
      },
      handler: async (request, reply) => {
        const result = await handle({ request, reply, clusterId: request.principal!.clusterId });
        if (reply.sent) return reply;
        return reply
          .code(route.success.status)
          .type('application/json; charset=utf-8')
          .send(JSON.stringify(result));
      },
    });
  }
  app.addHook('preClose', (done) => {
    streams.closeAll();
    done();
  });
}
