import { headerOf } from './headers.js';
import type { HeaderSource } from './transport.js';

/** The rate limit of the API key, as the last answer that carried the `RateLimit-*` headers told it. */
export interface RateLimitInfo {
  /** Requests allowed per minute. */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** Reads `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; null when the answer carries none. */
export function readRateLimit(headers: HeaderSource): RateLimitInfo | null {
  const limit = headerOf(headers, 'ratelimit-limit');
  if (limit === null) return null;
  const info = {
    limit: Number(limit),
    remaining: Number(headerOf(headers, 'ratelimit-remaining')),
    resetSeconds: Number(headerOf(headers, 'ratelimit-reset')),
  };
  return Number.isFinite(info.limit) && Number.isFinite(info.remaining) && Number.isFinite(info.resetSeconds)
    ? info
    : null;
}
