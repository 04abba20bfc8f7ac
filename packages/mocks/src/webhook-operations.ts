import {
  checkCollectionName,
  deliveryNotFound,
  resolveTestEvent,
  streamedResendRefused,
  WebhookCreate,
  WebhookSecretRotate,
  WebhookTestEvent,
  webhookNotFound,
  type webhookRoutes,
} from '@dataplatform/contract';
import { ApiError } from './answers.js';
import type { Operation } from './document-operations.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the operations need of a contract schema (structural, so the mocks need no zod types of their own). */
interface Schema<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** Parses a body with a contract schema, failing as the server does. */
function parse<T>(schema: Schema<T>, body: unknown): T {
  if (!isObject(body)) throw new ApiError('invalid_body', 'Body must be a JSON object');
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  throw new ApiError('validation_error', `Invalid body field "${field}": ${issue.message}`, {
    in: 'body',
    field,
  });
}

function notFound(webhookId: string): ApiError {
  return ApiError.fromViolation(webhookNotFound(webhookId));
}

function deliveryMissing(webhookId: string, deliveryId: string): ApiError {
  return ApiError.fromViolation(deliveryNotFound(webhookId, deliveryId));
}

/** Throws 404 unless the subscription exists. */
const existing: (id: string, ...rest: Parameters<Operation>) => void = (id, _input, _store, model) => {
  if (!model.webhooks.get(id)) throw notFound(id);
};

/** The webhook routes' behaviour, by operation id: as on the server, except that nothing is ever sent. */
export const webhookOperations: Record<(typeof webhookRoutes)[number]['id'], Operation> = {
  'webhooks.create': ({ body }, _store, { webhooks }) => {
    const input = parse(WebhookCreate, body);
    // A reserved name is no collection: a subscription to it could never receive an event.
    const reserved = input.collection === undefined ? null : checkCollectionName(input.collection);
    if (reserved) throw ApiError.fromViolation(reserved);
    return { status: 201, body: webhooks.create(input) };
  },
  'webhooks.list': (_input, _store, { webhooks }) => ({ status: 200, body: { data: webhooks.list() } }),
  'webhooks.delete': ({ params }, _store, { webhooks }) => {
    if (!webhooks.delete(params.webhookId!)) throw notFound(params.webhookId!);
    return { status: 200, body: { _id: params.webhookId, deleted: true } };
  },
  'webhooks.rotateSecret': ({ params, body }, _store, { webhooks }) => {
    const { secret } = parse(WebhookSecretRotate, body ?? {});
    const rotated = webhooks.rotate(params.webhookId!, secret);
    if (!rotated) throw notFound(params.webhookId!);
    return { status: 200, body: rotated };
  },
  'webhooks.deliveries': (input, store, model) => {
    existing(input.params.webhookId!, input, store, model);
    const { limit, skip, status } = input.query as { limit: number; skip: number; status?: string };
    const all = model.webhooks.deliveries(input.params.webhookId!, status);
    return { status: 200, body: { data: all.slice(skip, skip + limit), total: all.length, limit, skip } };
  },
  'webhooks.attempts': (input, store, model) => {
    const { webhookId, deliveryId } = input.params as { webhookId: string; deliveryId: string };
    existing(webhookId, input, store, model);
    // Nothing is ever sent, so a delivery has no attempts.
    if (!model.webhooks.delivery(webhookId, deliveryId)) throw deliveryMissing(webhookId, deliveryId);
    return { status: 200, body: { data: [] } };
  },
  'webhooks.resend': (input, store, model) => {
    const { webhookId, deliveryId } = input.params as { webhookId: string; deliveryId: string };
    existing(webhookId, input, store, model);
    const delivery = model.webhooks.resend(webhookId, deliveryId);
    if (!delivery) throw deliveryMissing(webhookId, deliveryId);
    if (delivery.status === 'streamed')
      throw ApiError.fromViolation(streamedResendRefused(webhookId, deliveryId));
    return { status: 202, body: delivery };
  },
  'webhooks.test': ({ params, body }, _store, { webhooks }) => {
    const input = parse(WebhookTestEvent, body ?? {});
    const subscription = webhooks.get(params.webhookId!);
    if (!subscription) throw notFound(params.webhookId!);
    const resolved = resolveTestEvent({ ...subscription, id: subscription._id }, input);
    if ('code' in resolved) throw ApiError.fromViolation(resolved);
    return { status: 202, body: webhooks.test(subscription._id, resolved) };
  },
  'webhooks.stream': (input, store, model) => {
    existing(input.params.webhookId!, input, store, model);
    // A stream that starts as the server's does (its start id alone), says why it carries nothing, then ends (a
    // client reconnects after `retry`).
    return {
      status: 200,
      body: undefined,
      raw: {
        contentType: 'text/event-stream; charset=utf-8',
        text: `retry: 2000\nid: start_${new Date().toISOString()}\n\n: the mocks capture no events\n\n`,
      },
    };
  },
};
