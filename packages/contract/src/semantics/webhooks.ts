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
