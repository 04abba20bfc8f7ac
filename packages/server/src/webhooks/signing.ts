import { createHmac } from 'node:crypto';

const STANDARD_PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The key of the Standard Webhooks signature: the base64-decoded part of the secret after `whsec_` (the whole
 * secret when it has no prefix), as Standard Webhooks libraries read it. Null when that part is not base64:
 * a secret of the caller's own choosing may not be, and a signature nobody can check is left out.
 */
export function standardKey(secret: string): Buffer | null {
  const encoded = secret.startsWith(STANDARD_PREFIX) ? secret.slice(STANDARD_PREFIX.length) : secret;
  if (encoded === '' || !BASE64.test(encoded)) return null;
  return Buffer.from(encoded, 'base64');
}

/** What a delivery is signed over. */
export interface SignatureInput {
  /** The event id, sent as `X-Webhook-Id` and `webhook-id`. */
  id: string;
  type: string;
  body: string;
  /** Unix seconds of the attempt. */
  timestamp: number;
  /** The secrets to sign with: the current one first, then one still valid after a rotation. */
  secrets: readonly string[];
}

/**
 * The headers of a delivery (API.md): `X-Webhook-Signature` (lowercase hex HMAC-SHA256 of the raw body keyed
 * with the secret's UTF-8 bytes; several comma-separated during a rotation), `X-Webhook-Id`, `X-Webhook-Event`,
 * `X-Webhook-Timestamp`, and the Standard Webhooks `webhook-id`, `webhook-timestamp` and `webhook-signature`
 * (`v1,<base64>` over `id.timestamp.body`; several space-separated during a rotation).
 */
export function signDelivery(input: SignatureInput): Record<string, string> {
  const { id, type, body, timestamp, secrets } = input;
  const hex = secrets.map((secret) => createHmac('sha256', secret).update(body).digest('hex'));
  const standard = secrets.flatMap((secret) => {
    const key = standardKey(secret);
    if (!key) return [];
    return [`v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`];
  });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-webhook-signature': hex.join(','),
    'x-webhook-id': id,
    'x-webhook-event': type,
    'x-webhook-timestamp': String(timestamp),
  };
  if (standard.length > 0) {
    headers['webhook-id'] = id;
    headers['webhook-timestamp'] = String(timestamp);
    headers['webhook-signature'] = standard.join(' ');
  }
  return headers;
}
