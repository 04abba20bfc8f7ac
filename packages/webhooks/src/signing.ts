import { toHex } from './encoding.js';
import { HEADER } from './header-names.js';
import { type Secrets, secretList } from './secrets.js';

/** Options of `sign` and `signAsync`. */
export interface SignOptions {
  /** The message id of X-Webhook-Id and webhook-id; a random `evt_…` id when left out. */
  id?: string;
  /** The event type of X-Webhook-Event, e.g. `document.created`; the header is left out without it. */
  event?: string;
  /** When the attempt is sent; now when left out. */
  timestamp?: Date;
}

/**
 * Every header of a signed delivery, with lower-case names; spreads into `fetch`'s headers as it is. The
 * Standard Webhooks trio is left out when no secret is `whsec_` + base64 (see `verify`).
 */
// A type rather than an interface: only a type is assignable to Record<string, string> (fetch's HeadersInit).
export type WebhookHeaders = {
  'x-webhook-signature': string;
  'x-webhook-id': string;
  'x-webhook-timestamp': string;
  'x-webhook-event'?: string;
  'webhook-id'?: string;
  'webhook-timestamp'?: string;
  'webhook-signature'?: string;
};

/** What a signature covers besides the body, resolved from the options. */
export interface SigningInput {
  secrets: readonly string[];
  id: string;
  timestamp: string;
  event: string | undefined;
}

export function signingInput(secret: Secrets, options: SignOptions | undefined): SigningInput {
  const time = options?.timestamp ?? new Date();
  if (!(time instanceof Date) || Number.isNaN(time.getTime()))
    throw new TypeError('timestamp must be a valid Date');
  const id = options?.id ?? randomId();
  if (typeof id !== 'string' || id === '') throw new TypeError('id must be a non-empty string');
  return {
    secrets: secretList(secret),
    id,
    timestamp: String(Math.floor(time.getTime() / 1000)),
    event: options?.event,
  };
}

/** `${id}.${timestamp}.`: what Standard Webhooks signs before the body. */
export function standardPrefix(id: string, timestamp: string): string {
  return `${id}.${timestamp}.`;
}

/**
 * The headers from the signatures, in the secrets' order. Several hex signatures are joined by a comma without a
 * space, as docs/webhooks.md documents the header (verifiers also take ", ", an HTTP list), several Standard
 * Webhooks entries by a space, as that spec says.
 */
export function assembleHeaders(
  input: SigningInput,
  hexSignatures: readonly string[],
  standardSignatures: readonly string[],
): WebhookHeaders {
  const headers: WebhookHeaders = {
    [HEADER.signature]: hexSignatures.join(','),
    [HEADER.id]: input.id,
    ...(input.event === undefined ? {} : { [HEADER.event]: input.event }),
    [HEADER.timestamp]: input.timestamp,
  };
  if (standardSignatures.length > 0) {
    headers[HEADER.standardId] = input.id;
    headers[HEADER.standardTimestamp] = input.timestamp;
    headers[HEADER.standardSignature] = standardSignatures.map((signature) => `v1,${signature}`).join(' ');
  }
  return headers;
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `evt_${toHex(bytes)}`;
}
