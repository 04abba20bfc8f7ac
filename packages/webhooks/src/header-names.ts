/** The headers of a delivery, in the lower case that HTTP/2 and Node.js use. */
export const HEADER = {
  /** Lowercase hex HMAC-SHA256 of the raw body; several, comma-separated, while a secret rotates. */
  signature: 'x-webhook-signature',
  id: 'x-webhook-id',
  event: 'x-webhook-event',
  /** Unix seconds when the attempt was sent. */
  timestamp: 'x-webhook-timestamp',
  /** Standard Webhooks: the message id, signed. */
  standardId: 'webhook-id',
  /** Standard Webhooks: Unix seconds when the attempt was sent, signed. */
  standardTimestamp: 'webhook-timestamp',
  /** Standard Webhooks: `v1,<base64>` entries separated by spaces. */
  standardSignature: 'webhook-signature',
} as const;

/** How long a timestamp may be from now, in either direction, unless `toleranceSeconds` says otherwise. */
export const DEFAULT_TOLERANCE_SECONDS = 300;
