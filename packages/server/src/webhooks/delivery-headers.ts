import { sign } from '@dataplatform/webhooks/node';

/** What one attempt of a delivery is signed over. */
export interface DeliveryHeadersInput {
  /** The event id, sent as `X-Webhook-Id` and `webhook-id`. */
  id: string;
  type: string;
  body: string;
  /** When the attempt is sent, in milliseconds (the headers carry whole seconds). */
  sentAt: number;
  /** The current secret first, then one still valid after a rotation. */
  secrets: readonly string[];
}

/**
 * The headers of a delivery attempt: the body's type and both signature schemes, made by the verifier's own
 * `sign` so that what the server sends and what receivers check cannot drift apart (docs/webhooks.md).
 */
export function deliveryHeaders(input: DeliveryHeadersInput): Record<string, string> {
  const { id, type, body, sentAt, secrets } = input;
  return {
    'content-type': 'application/json',
    ...sign(body, secrets, { id, event: type, timestamp: new Date(sentAt) }),
  };
}
