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
