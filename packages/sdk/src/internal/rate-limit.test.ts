import { describe, expect, it } from 'vitest';
import { readRateLimit } from './rate-limit.js';

describe('readRateLimit', () => {
  it('reads the three headers from either header shape', () => {
    const values = { 'ratelimit-limit': '100', 'ratelimit-remaining': '7', 'ratelimit-reset': '30' };
    const info = { limit: 100, remaining: 7, resetSeconds: 30 };
    expect(readRateLimit(values)).toEqual(info);
    expect(readRateLimit(new Headers(values))).toEqual(info);
  });

  it('is null without RateLimit-Limit, or when a value is not a number', () => {
    expect(readRateLimit({})).toBeNull();
    expect(
      readRateLimit({ 'ratelimit-limit': '100', 'ratelimit-remaining': 'many', 'ratelimit-reset': '1' }),
    ).toBeNull();
  });
});
