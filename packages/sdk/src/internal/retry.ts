import { headerOf } from './headers.js';
import type { HeaderSource } from './transport.js';

/**
 * 409 codes that no retry can change: a duplicate `_id` stays a duplicate, an Idempotency-Key reused with another
 * request stays mismatched (and the retry carries the same key), and an aborted transaction failed on one of its
 * own operations' answers. Other 409s (say, a lock conflict a newer server may report) are transient.
 */
const FINAL_CONFLICTS = new Set(['conflict', 'idempotency_mismatch', 'transaction_aborted']);

/**
 * The longest server-requested wait sat through inside one call by default (the `maxRetryWait` option); a longer
 * one ends the call with the error instead. A minute covers the API's `Retry-After: 60` after a rate limit.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Whether an error answer is worth another attempt: 408, 409 (but not its final codes), 429 and 5xx. */
export function isRetryableStatus(status: number, code: unknown): boolean {
  if (status === 409) return !(typeof code === 'string' && FINAL_CONFLICTS.has(code));
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The wait the server asked for: `retry-after-ms`, else `Retry-After` in seconds or as an HTTP date.
 * Undefined when there is no usable header.
 */
export function serverRetryDelay(headers: HeaderSource | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headerOf(headers, 'retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headerOf(headers, 'retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter: 0.5 s, 1 s, 2 s … capped at 8 s, each shortened by up to a quarter at random. */
export function backoffDelay(retry: number, random = Math.random()): number {
  const seconds = Math.min(0.5 * 2 ** retry, 8);
  return seconds * (1 - random * 0.25) * 1000;
}

/**
 * How long to wait before retry number `retry` (0-based): the server's wish when it gave one, else backoff.
 * Undefined means "do not retry": the server asked for more than `maxWait` milliseconds.
 */
export function retryDelay(
  retry: number,
  headers: HeaderSource | undefined,
  maxWait = MAX_RETRY_AFTER_MS,
): number | undefined {
  const asked = serverRetryDelay(headers);
  if (asked === undefined) return backoffDelay(retry);
  return asked <= maxWait ? asked : undefined;
}
