import { RATE_LIMITED_RETRY_AFTER } from '../rate-limits.js';

/** What counting one request against its rate limit decided. */
export interface RateLimitCount {
  /** False when the request is over the limit: it is refused with 429 `rate_limited`. */
  allowed: boolean;
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the window (below zero counts as zero). */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * The headers of an answer to a counted request: the `RateLimit-*` trio, which every answer after authentication
 * carries, and `Retry-After` when the request is over the limit (the 429 `rate_limited` answer).
 */
export function rateLimitHeaders(count: RateLimitCount): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(count.limit),
    'RateLimit-Remaining': String(Math.max(0, count.remaining)),
    'RateLimit-Reset': String(count.resetSeconds),
  };
  if (!count.allowed) headers['Retry-After'] = String(RATE_LIMITED_RETRY_AFTER);
  return headers;
}
