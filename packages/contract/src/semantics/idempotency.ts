import type { Violation } from './documents.js';

/** How long an Idempotency-Key replays the first answer of its request. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The longest Idempotency-Key, in characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * Checks the Idempotency-Key header of a write: null when it is absent (`undefined` or `null`) or 1 to 255
 * characters; otherwise 400 `validation_error` naming the header (an empty key, a longer one, or the header sent
 * several times).
 */
export function checkIdempotencyKey(header: unknown): Violation | null {
  if (header === undefined || header === null) return null;
  if (typeof header === 'string' && header.length > 0 && header.length <= IDEMPOTENCY_KEY_MAX_LENGTH)
    return null;
  return {
    code: 'validation_error',
    message: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
    details: { in: 'header', field: 'Idempotency-Key' },
  };
}

/**
 * What makes two writes "the same request" for an Idempotency-Key: the method, the path without its query and
 * the exact body text. A key sent again with another of these is 409 `idempotency_mismatch`.
 * @example idempotencySubject('POST', '/api/v1/data/orders', '{"total":1}')
 */
export function idempotencySubject(method: string, path: string, body: string): string {
  return `${method} ${path}\n${body}`;
}
