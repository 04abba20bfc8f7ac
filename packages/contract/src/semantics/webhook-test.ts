import type { WebhookEventType } from '../schemas/webhook.js';
import type { Violation } from './documents.js';
import { subscribesTo } from './webhooks.js';

/** What deciding a test event needs of a subscription. */
export interface TestEventSubscription {
  id: string;
  events: readonly string[];
  collection: string | null;
  active: boolean;
}

/** The collection of a test event to a subscription of every collection, when none is asked for. */
export const TEST_EVENT_COLLECTION = 'test';

/** Kind of a test event when none is asked for: the first the subscription names (`*`: a creation). */
function defaultType(events: readonly string[]): WebhookEventType {
  const first = events.find((event) => event !== '*');
  return events.includes('*') || first === undefined ? 'document.created' : (first as WebhookEventType);
}

/**
 * The kind and collection of a test event for `subscription` (the test route), filling in what `input` leaves
 * out, or the violation that says why the subscription would not get it: a kind it does not want, a collection
 * it does not cover, or a subscription disabled by a 410 answer.
 */
export function resolveTestEvent(
  subscription: TestEventSubscription,
  input: { type?: WebhookEventType; collection?: string },
): { type: WebhookEventType; collection: string } | Violation {
  const { id, events } = subscription;
  const refuse = (field: string, why: string): Violation => ({
    code: 'validation_error',
    message: `Invalid body field "${field}": ${why}`,
    details: { in: 'body', field, webhookId: id },
  });
  if (!subscription.active) {
    return {
      code: 'validation_error',
      message: `Webhook "${id}" is disabled (its receiver answered 410 Gone): nothing is delivered to it`,
      details: { webhookId: id, active: false },
    };
  }
  const type = input.type ?? defaultType(events);
  if (!subscribesTo(events, type)) {
    return refuse('type', `webhook "${id}" does not subscribe to ${type} (it wants ${events.join(', ')})`);
  }
  const collection = input.collection ?? subscription.collection ?? TEST_EVENT_COLLECTION;
  if (subscription.collection !== null && collection !== subscription.collection) {
    return refuse('collection', `webhook "${id}" covers only the collection "${subscription.collection}"`);
  }
  return { type, collection };
}

/**
 * The sample documents of a test event: `data`, and for `document.updated` the `previous` state too. Shaped like
 * stored documents (`_id`, `_createdAt`, `_updatedAt`) so receivers parse them as they parse real ones, and
 * marked `example: true`; their `_id` is the event's `documentId`.
 */
export function testEventDocuments(
  type: WebhookEventType,
  documentId: string,
  createdAt: string,
): { data: Record<string, unknown>; previous?: Record<string, unknown> } {
  const sample = (status: string) => ({
    _id: documentId,
    example: true,
    status,
    _createdAt: createdAt,
    _updatedAt: createdAt,
  });
  return type === 'document.updated'
    ? { data: sample('updated'), previous: sample('created') }
    : { data: sample(type === 'document.deleted' ? 'deleted' : 'created') };
}
