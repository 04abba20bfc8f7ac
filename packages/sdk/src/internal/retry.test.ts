import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  retryDelay,
  serverRetryDelay,
} from './retry.js';

describe('isRetryableStatus', () => {
  it.each([408, 409, 429, 500, 502, 503, 504])('retries %i', (status) => {
    expect(isRetryableStatus(status, undefined)).toBe(true);
  });

  it.each([400, 401, 403, 404, 413, 422])('does not retry %i', (status) => {
    expect(isRetryableStatus(status, undefined)).toBe(false);
  });

  it.each(['conflict', 'idempotency_mismatch', 'transaction_aborted'])('treats 409 %s as final', (code) => {
    expect(isRetryableStatus(409, code)).toBe(false);
  });

  it('retries a 409 with a code it does not know', () => {
    expect(isRetryableStatus(409, 'lock_timeout')).toBe(true);
  });
});

describe('serverRetryDelay', () => {
  it('reads Retry-After in seconds', () => {
    expect(serverRetryDelay(new Headers({ 'retry-after': '3' }))).toBe(3000);
  });

  it('reads Retry-After as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(serverRetryDelay({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }, now)).toBe(5000);
  });

  it('treats a date in the past as no wait', () => {
    const now = Date.parse('2025-01-01T00:00:10Z');
    expect(serverRetryDelay({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }, now)).toBe(0);
  });

  it('prefers retry-after-ms over Retry-After', () => {
    expect(serverRetryDelay(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
  });

  it('ignores missing, empty and unreadable values', () => {
    expect(serverRetryDelay(new Headers())).toBeUndefined();
    expect(serverRetryDelay({ 'retry-after': '' })).toBeUndefined();
    expect(serverRetryDelay({ 'retry-after': 'soon' })).toBeUndefined();
    expect(serverRetryDelay({ 'retry-after': '-1' })).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles from 0.5 s and stops at 8 s', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((retry) => backoffDelay(retry, 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });

  it('shortens each wait by up to a quarter at random', () => {
    expect(backoffDelay(0, 1)).toBe(375);
    expect(backoffDelay(4, 0.5)).toBe(7000);
  });
});

describe('retryDelay', () => {
  it('uses the server-requested wait when there is one', () => {
    expect(retryDelay(3, { 'retry-after': '2' })).toBe(2000);
  });

  it('falls back to backoff without a usable header', () => {
    const delay = retryDelay(1, undefined);
    expect(delay).toBeGreaterThanOrEqual(750);
    expect(delay).toBeLessThanOrEqual(1000);
  });

  it('gives up when the server asks for more than the longest wait', () => {
    expect(retryDelay(0, { 'retry-after': String(MAX_RETRY_AFTER_MS / 1000) })).toBe(MAX_RETRY_AFTER_MS);
    expect(retryDelay(0, { 'retry-after': String(MAX_RETRY_AFTER_MS / 1000 + 1) })).toBeUndefined();
  });
});
