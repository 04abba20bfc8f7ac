import { WebhookVerificationError } from './errors.js';
import { DEFAULT_TOLERANCE_SECONDS, HEADER } from './header-names.js';
import { type HeadersLike, listHeader, singleHeader } from './headers.js';

/** Options of `verify` and `verifyAsync`. */
export interface VerifyOptions {
  /**
   * How far, in seconds, a delivery's timestamps may be from now in either direction: older ones are refused as
   * replays, newer ones as coming from a clock that runs ahead. Default 300; `Infinity` turns the check off.
   */
  toleranceSeconds?: number;
  /** The time to check timestamps against, instead of the clock; for tests. */
  now?: Date;
}

/** What the headers say, checked for presence, format and age; the signatures are checked by the caller. */
export interface Delivery {
  /** X-Webhook-Signature's hex signatures; `undefined` when the header is absent. */
  hexSignatures: readonly string[] | undefined;
  /** The Standard Webhooks headers; `undefined` when `webhook-signature` is absent. */
  standard: StandardHeaders | undefined;
}

export interface StandardHeaders {
  id: string;
  timestamp: string;
  /** The base64 of every `v1` entry; entries of other versions are left out. */
  signatures: readonly string[];
}

const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;
const UNIX_SECONDS = /^[0-9]{1,12}$/;

/**
 * Reads a delivery's headers in a fixed order that every language's verifier follows (spec/webhooks/README.md):
 * presence, then format, then the age of each timestamp. Throws the first failure.
 */
export function readDelivery(headers: HeadersLike, options: VerifyOptions | undefined): Delivery {
  if (headers === null || typeof headers !== 'object') {
    throw new TypeError('headers must be the request headers: a Headers object or a plain object of them');
  }
  const tolerance = toleranceOf(options);
  const hex = listHeader(headers, HEADER.signature, ',');
  const standardSignature = listHeader(headers, HEADER.standardSignature, ' ');
  if (hex === undefined && standardSignature === undefined) {
    throw new WebhookVerificationError(
      'missing_header',
      'neither X-Webhook-Signature nor webhook-signature is present: the request is not a signed delivery, or a proxy removed its headers',
      HEADER.signature,
    );
  }

  let standard: StandardHeaders | undefined;
  if (standardSignature !== undefined) {
    const id = singleHeader(headers, HEADER.standardId);
    const timestamp = singleHeader(headers, HEADER.standardTimestamp);
    if (id === undefined || timestamp === undefined) {
      const missing = id === undefined ? HEADER.standardId : HEADER.standardTimestamp;
      throw new WebhookVerificationError(
        'missing_header',
        `webhook-signature is present but ${missing} is not; Standard Webhooks signs the id, timestamp and body together`,
        missing,
      );
    }
    requireUnixSeconds(timestamp, HEADER.standardTimestamp);
    standard = { id, timestamp, signatures: parseStandardSignatures(standardSignature) };
  }
  const plainTimestamp = singleHeader(headers, HEADER.timestamp);
  if (plainTimestamp !== undefined) requireUnixSeconds(plainTimestamp, HEADER.timestamp);
  const hexSignatures = hex === undefined ? undefined : parseHexSignatures(hex);

  const now = Math.floor((options?.now?.getTime() ?? Date.now()) / 1000);
  if (standard) checkAge(Number(standard.timestamp), now, tolerance, HEADER.standardTimestamp);
  if (plainTimestamp !== undefined) checkAge(Number(plainTimestamp), now, tolerance, HEADER.timestamp);
  return { hexSignatures, standard };
}

function toleranceOf(options: VerifyOptions | undefined): number {
  const tolerance = options?.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== 'number' || Number.isNaN(tolerance) || tolerance < 0) {
    throw new TypeError(
      'toleranceSeconds must be a number of seconds, 0 or more (Infinity turns the check off)',
    );
  }
  if (options?.now !== undefined && !(options.now instanceof Date && !Number.isNaN(options.now.getTime()))) {
    throw new TypeError('now must be a valid Date');
  }
  return tolerance;
}

/** `X-Webhook-Signature: <hex>[, <hex>…]`: an HTTP list (RFC 9110 §5.6.1) of 64 hex digits each. */
function parseHexSignatures(value: string): readonly string[] {
  const signatures: string[] = [];
  for (const element of value.split(',')) {
    const signature = element.trim();
    if (signature === '') continue;
    if (!HEX_SIGNATURE.test(signature)) {
      throw new WebhookVerificationError(
        'malformed_header',
        'X-Webhook-Signature must be 64 hex digits (HMAC-SHA256), or several separated by commas',
        HEADER.signature,
      );
    }
    signatures.push(signature);
  }
  if (signatures.length === 0) {
    throw new WebhookVerificationError(
      'malformed_header',
      'X-Webhook-Signature holds no signature',
      HEADER.signature,
    );
  }
  return signatures;
}

/** `webhook-signature: v1,<base64> [v1,<base64>…]`; entries of versions other than v1 are skipped, as the spec says. */
function parseStandardSignatures(value: string): readonly string[] {
  const signatures: string[] = [];
  for (const spaced of value.split(' ')) {
    // HTTP libraries join a repeated header with ", ", which leaves a comma after all but the last entry.
    const entry =
      spaced.endsWith(',') && spaced.indexOf(',') < spaced.length - 1 ? spaced.slice(0, -1) : spaced;
    if (entry === '') continue;
    const comma = entry.indexOf(',');
    const version = entry.slice(0, comma);
    const signature = entry.slice(comma + 1);
    if (comma <= 0 || (version === 'v1' && !BASE64_SHA256.test(signature))) {
      throw new WebhookVerificationError(
        'malformed_header',
        'webhook-signature must be space-separated entries of the form v1,<base64 of 32 bytes>',
        HEADER.standardSignature,
      );
    }
    if (version === 'v1') signatures.push(signature);
  }
  return signatures;
}

function requireUnixSeconds(value: string, name: string): void {
  if (!UNIX_SECONDS.test(value)) {
    throw new WebhookVerificationError(
      'malformed_header',
      `${name} must be Unix time in whole seconds`,
      name,
    );
  }
}

function checkAge(timestamp: number, now: number, tolerance: number, name: string): void {
  const age = now - timestamp;
  if (age > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `${name} is ${age} s old, more than the ${tolerance} s tolerance: a replayed or long-delayed delivery, or a clock that is behind`,
      name,
    );
  }
  if (-age > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_in_future',
      `${name} is ${-age} s ahead of this clock, more than the ${tolerance} s tolerance: one of the two clocks is wrong`,
      name,
    );
  }
}
