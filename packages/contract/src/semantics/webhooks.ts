import type { Violation } from './documents.js';

/** How long the old secret keeps signing after a rotation, so that receivers can switch without missing one. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** 404 for a subscription that does not exist in the caller's cluster. */
export function webhookNotFound(webhookId: string): Violation {
  return { code: 'not_found', message: `Webhook "${webhookId}" not found`, details: { webhookId } };
}

/** 404 for a delivery that the subscription does not have. */
export function deliveryNotFound(webhookId: string, deliveryId: string): Violation {
  return {
    code: 'not_found',
    message: `Delivery "${deliveryId}" of webhook "${webhookId}" not found`,
    details: { webhookId, deliveryId },
  };
}

/**
 * 400 for re-sending a delivery of a stream subscription: the server never posts those, and the event stream
 * gives them again from an earlier Last-Event-ID.
 */
export function streamedResendRefused(webhookId: string, deliveryId: string): Violation {
  return {
    code: 'validation_error',
    message: `Delivery "${deliveryId}" of webhook "${webhookId}" is streamed: a stream subscription is never posted to, so there is nothing to re-send (reconnect the event stream with a Last-Event-ID from before it to get it again)`,
    details: { webhookId, deliveryId, status: 'streamed' },
  };
}

/** What deciding whether a subscription wants an event needs of it. */
export interface EventFilter {
  /** The kinds of event it takes; `*` takes every kind. */
  events: readonly string[];
  /** The one collection it covers, or null for every collection. */
  collection: string | null;
}

/** True when a subscription's `events` take events of `type` (`*` takes every kind). */
export function subscribesTo(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

/**
 * True when the subscription wants events of `type` in `collection`: the outbox makes a delivery for it. Whether
 * it is active (not disabled by a 410 answer) is the caller's to check.
 */
export function subscriptionWants(subscription: EventFilter, type: string, collection: string): boolean {
  if (subscription.collection !== null && subscription.collection !== collection) return false;
  return subscribesTo(subscription.events, type);
}
