import { describe, expect, it } from 'vitest';
import { RATE_LIMITED_RETRY_AFTER } from '../rate-limits.js';
import { rateLimitHeaders } from './rate-limit.js';

describe('rateLimitHeaders', () => {
  it('gives the RateLimit trio of a counted request within its limit, and no Retry-After', () => {
    expect(rateLimitHeaders({ allowed: true, limit: 100, remaining: 99, resetSeconds: 60 })).toEqual({
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': '99',
      'RateLimit-Reset': '60',
    });
  });

  it('adds Retry-After to a request over the limit, whose remaining count is never below zero', () => {
    expect(rateLimitHeaders({ allowed: false, limit: 100, remaining: -3, resetSeconds: 12 })).toEqual({
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '12',
      'Retry-After': String(RATE_LIMITED_RETRY_AFTER),
    });
  });
});
