import { fromBase64 } from './encoding.js';

/** One subscription secret, or several while a secret rotates (any of them may have signed a delivery). */
export type Secrets = string | readonly string[];

const PREFIX = 'whsec_';

/** The secrets as a non-empty list; a mistake in them is a programming error, so a TypeError. */
export function secretList(secret: Secrets): readonly string[] {
  const list = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError('secret must be a non-empty string or a non-empty array of them');
  }
  for (const each of list) {
    if (typeof each !== 'string' || each.length === 0) {
      throw new TypeError('every secret must be a non-empty string, exactly as the subscription returned it');
    }
  }
  return list;
}

/**
 * The Standard Webhooks key of a secret: the secret without its `whsec_` prefix, decoded as standard padded
 * base64 (what every Standard Webhooks library does with it). `null` when that is not possible, e.g. for a
 * hand-chosen secret such as `correct-horse-battery-staple`.
 */
export function standardWebhooksKey(secret: string): Uint8Array<ArrayBuffer> | null {
  const key = fromBase64(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret);
  return key && key.length > 0 ? key : null;
}
