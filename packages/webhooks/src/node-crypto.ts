import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { type RawBody, rawBodyInput } from './body.js';
import { readDelivery, type VerifyOptions } from './delivery.js';
import type { HeadersLike } from './headers.js';
import { type Secrets, secretList, standardWebhooksKey } from './secrets.js';
import {
  assembleHeaders,
  type SignOptions,
  signingInput,
  standardPrefix,
  type WebhookHeaders,
} from './signing.js';
import { noStandardKey, requireHexMatch, requireStandardMatch } from './verification.js';

interface Keys {
  /** Keys X-Webhook-Signature: the UTF-8 bytes of the whole secret. */
  plain: KeyObject;
  /** Keys webhook-signature; `null` when the secret is not base64. */
  standard: KeyObject | null;
}

// A receiver uses one or two secrets for its whole life; deriving their keys once saves work on every delivery.
// Bounded so that a caller passing ever-new secrets cannot grow it without end.
const MAX_CACHED_SECRETS = 32;
const cache = new Map<string, Keys>();

function keysOf(secret: string): Keys {
  let keys = cache.get(secret);
  if (keys === undefined) {
    const standard = standardWebhooksKey(secret);
    keys = {
      plain: createSecretKey(Buffer.from(secret, 'utf8')),
      standard: standard && createSecretKey(standard),
    };
    if (cache.size >= MAX_CACHED_SECRETS) cache.clear();
    cache.set(secret, keys);
  }
  return keys;
}

/**
 * Verifies a delivery on Node.js (and Bun and Deno, through `node:crypto`), synchronously. Returns when every
 * signature scheme present checks out; otherwise throws a `WebhookVerificationError` whose `code` names the check.
 *
 * @param rawBody the body exactly as received, never a parsed object
 * @param headers the request's headers (`req.headers`, a `Headers` object, or a plain object in any case)
 * @param secret the subscription's secret exactly as returned (`whsec_…`), or several while one rotates
 * @example verify(req.rawBody, req.headers, process.env.WEBHOOK_SECRET!, { toleranceSeconds: 300 });
 */
export function verify(
  rawBody: RawBody,
  headers: HeadersLike,
  secret: Secrets,
  options?: VerifyOptions,
): void {
  const secrets = secretList(secret);
  const body = rawBodyInput(rawBody);
  const delivery = readDelivery(headers, options);
  if (delivery.hexSignatures) {
    const expected = secrets.map((each) =>
      createHmac('sha256', keysOf(each).plain).update(body).digest('hex'),
    );
    requireHexMatch(expected, delivery.hexSignatures);
  }
  if (delivery.standard) {
    const { id, timestamp, signatures } = delivery.standard;
    const prefix = standardPrefix(id, timestamp);
    const expected: string[] = [];
    for (const each of secrets) {
      const key = keysOf(each).standard;
      if (key) expected.push(createHmac('sha256', key).update(prefix).update(body).digest('base64'));
    }
    if (expected.length === 0) throw noStandardKey();
    requireStandardMatch(expected, signatures);
  }
}

/**
 * Signs a payload as the server does and returns every header of the delivery; for tests of a receiver.
 * With several secrets (newest first) it signs with each, as during a rotation.
 *
 * @example
 * const headers = sign(JSON.stringify(event), 'whsec_…', { event: 'document.created' });
 */
export function sign(rawBody: RawBody, secret: Secrets, options?: SignOptions): WebhookHeaders {
  const input = signingInput(secret, options);
  const body = rawBodyInput(rawBody);
  const prefix = standardPrefix(input.id, input.timestamp);
  const hex: string[] = [];
  const standard: string[] = [];
  for (const each of input.secrets) {
    const keys = keysOf(each);
    hex.push(createHmac('sha256', keys.plain).update(body).digest('hex'));
    if (keys.standard)
      standard.push(createHmac('sha256', keys.standard).update(prefix).update(body).digest('base64'));
  }
  return assembleHeaders(input, hex, standard);
}
