import { type RawBody, rawBodyInput } from './body.js';
import { readDelivery, type VerifyOptions } from './delivery.js';
import { toBase64, toHex, utf8 } from './encoding.js';
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
  plain: CryptoKey;
  standard: CryptoKey | null;
}

// As in the Node form: keys are imported once per secret, and the cache is bounded.
const MAX_CACHED_SECRETS = 32;
const cache = new Map<string, Promise<Keys>>();

function subtle(): SubtleCrypto {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new Error(
      'Web Crypto (crypto.subtle) is not available here: browsers offer it only on https pages; on Node.js, use verify from @dataplatform/webhooks/node',
    );
  }
  return subtle;
}

function importKey(bytes: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return subtle().importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

function keysOf(secret: string): Promise<Keys> {
  let keys = cache.get(secret);
  if (keys === undefined) {
    const standard = standardWebhooksKey(secret);
    keys = Promise.all([importKey(utf8(secret)), standard && importKey(standard)]).then(
      ([plain, standard]) => ({
        plain,
        standard,
      }),
    );
    if (cache.size >= MAX_CACHED_SECRETS) cache.clear();
    cache.set(secret, keys);
    keys.catch(() => cache.delete(secret));
  }
  return keys;
}

async function hmac(key: CryptoKey, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  return new Uint8Array(await subtle().sign('HMAC', key, data));
}

function bytesOf(body: RawBody): Uint8Array<ArrayBuffer> {
  const input = rawBodyInput(body);
  return typeof input === 'string' ? utf8(input) : input;
}

/** `${id}.${timestamp}.` followed by the body, as one buffer for Web Crypto. */
function standardContent(id: string, timestamp: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = utf8(standardPrefix(id, timestamp));
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix);
  content.set(body, prefix.length);
  return content;
}

/**
 * Verifies a delivery with Web Crypto, in any runtime: Node.js, Deno, Bun, browsers, Cloudflare Workers, Vercel
 * and other edge runtimes. Resolves when every signature scheme present checks out; otherwise rejects with a
 * `WebhookVerificationError` whose `code` names the check. The same rules as the Node form, `verify`.
 *
 * @param rawBody the body exactly as received (`await request.arrayBuffer()` or `await request.text()`)
 * @param headers the request's headers (`request.headers`, or a plain object in any case)
 * @param secret the subscription's secret exactly as returned (`whsec_…`), or several while one rotates
 * @example await verifyAsync(await request.text(), request.headers, env.WEBHOOK_SECRET);
 */
export async function verifyAsync(
  rawBody: RawBody,
  headers: HeadersLike,
  secret: Secrets,
  options?: VerifyOptions,
): Promise<void> {
  const secrets = secretList(secret);
  const body = bytesOf(rawBody);
  const delivery = readDelivery(headers, options);
  const keys = await Promise.all(secrets.map(keysOf));
  if (delivery.hexSignatures) {
    const expected = await Promise.all(keys.map(async ({ plain }) => toHex(await hmac(plain, body))));
    requireHexMatch(expected, delivery.hexSignatures);
  }
  if (delivery.standard) {
    const { id, timestamp, signatures } = delivery.standard;
    const standardKeys = keys.flatMap(({ standard }) => (standard ? [standard] : []));
    if (standardKeys.length === 0) throw noStandardKey();
    const content = standardContent(id, timestamp, body);
    const expected = await Promise.all(standardKeys.map(async (key) => toBase64(await hmac(key, content))));
    requireStandardMatch(expected, signatures);
  }
}

/**
 * Signs a payload as the server does and resolves to every header of the delivery; the Web Crypto form of
 * `sign`, for tests of receivers in any runtime.
 */
export async function signAsync(
  rawBody: RawBody,
  secret: Secrets,
  options?: SignOptions,
): Promise<WebhookHeaders> {
  const input = signingInput(secret, options);
  const body = bytesOf(rawBody);
  const keys = await Promise.all(input.secrets.map(keysOf));
  const hex = await Promise.all(keys.map(async ({ plain }) => toHex(await hmac(plain, body))));
  const content = standardContent(input.id, input.timestamp, body);
  const standard = await Promise.all(
    keys.flatMap(({ standard }) => (standard ? [hmac(standard, content).then(toBase64)] : [])),
  );
  return assembleHeaders(input, hex, standard);
}
