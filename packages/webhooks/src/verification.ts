import { hexEquals, textEquals } from './encoding.js';
import { WebhookVerificationError } from './errors.js';
import { HEADER } from './header-names.js';

/** Throws `invalid_signature` unless one of the received hex signatures equals one of the expected digests. */
export function requireHexMatch(expected: readonly string[], received: readonly string[]): void {
  for (const digest of expected) {
    for (const signature of received) if (hexEquals(digest, signature)) return;
  }
  throw new WebhookVerificationError(
    'invalid_signature',
    `X-Webhook-Signature matches the body under none of the ${count(expected.length)}: a wrong secret, or a body that is not the raw one that was sent (parsed and re-serialised, or re-encoded)`,
    HEADER.signature,
  );
}

/** Throws `invalid_signature` unless one of the received v1 signatures equals one of the expected ones. */
export function requireStandardMatch(expected: readonly string[], received: readonly string[]): void {
  for (const digest of expected) {
    for (const signature of received) if (textEquals(digest, signature)) return;
  }
  throw new WebhookVerificationError(
    'invalid_signature',
    received.length === 0
      ? 'webhook-signature has no v1 entry, the only version this verifier knows'
      : `webhook-signature matches id, timestamp and body under none of the ${count(expected.length)}: a wrong secret, or a body that is not the raw one that was sent`,
    HEADER.standardSignature,
  );
}

/** The error for Standard Webhooks headers when no secret yields a Standard Webhooks key. */
export function noStandardKey(): WebhookVerificationError {
  return new WebhookVerificationError(
    'invalid_secret',
    'the delivery carries Standard Webhooks headers, but no secret is whsec_ followed by base64, so none can check them; pass the secret exactly as the subscription returned it',
    HEADER.standardSignature,
  );
}

function count(secrets: number): string {
  return secrets === 1 ? 'secret' : `${secrets} secrets`;
}
