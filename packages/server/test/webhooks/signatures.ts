import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Received } from './receiver.js';

/** True when one of the comma-separated hex values of X-Webhook-Signature is the HMAC of the body under `secret`. */
export function hexSignatureValid(received: Received, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(received.body).digest();
  const header = String(received.headers['x-webhook-signature'] ?? '');
  return header.split(',').some((value) => {
    const given = Buffer.from(value, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** True when the official `standardwebhooks` package accepts the delivery with `secret`. */
export function standardSignatureValid(received: Received, secret: string): boolean {
  try {
    new Webhook(secret).verify(received.body, {
      'webhook-id': String(received.headers['webhook-id']),
      'webhook-timestamp': String(received.headers['webhook-timestamp']),
      'webhook-signature': String(received.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * True when one of the `v1,` values of webhook-signature is the Standard Webhooks signature under `secret`,
 * computed with node:crypto and no timestamp tolerance (for deliveries stamped by a test clock).
 */
export function standardSignatureMatches(received: Received, secret: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${received.headers['webhook-id']}.${received.headers['webhook-timestamp']}.${received.body}`;
  const expected = createHmac('sha256', key).update(signed).digest();
  return String(received.headers['webhook-signature'] ?? '')
    .split(' ')
    .some((entry) => {
      const given = Buffer.from(entry.replace(/^v1,/, ''), 'base64');
      return entry.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
    });
}
