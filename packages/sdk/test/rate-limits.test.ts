import { createDataPlatformMocks } from '@dataplatform/mocks';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DataPlatform, RateLimitError } from '../src/index.js';

const BASE = 'http://localhost:5000';
const mocks = createDataPlatformMocks({ baseUrl: BASE });
const server = setupServer(...mocks.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  mocks.store.reset();
  vi.useRealTimers();
});
afterAll(() => server.close());

const limited = (retryAfter: string) =>
  HttpResponse.json(
    { error: 'Rate limit exceeded', code: 'rate_limited', requestId: 'req_1' },
    {
      status: 429,
      headers: {
        'retry-after': retryAfter,
        'ratelimit-limit': '100',
        'ratelimit-remaining': '0',
        'ratelimit-reset': '42',
      },
    },
  );

describe('client.rateLimit', () => {
  it('is null until an answer carries the RateLimit headers, then follows them', async () => {
    const key = mocks.addKey({ scopes: ['data:read'], tier: 'free' });
    const client = new DataPlatform({ apiKey: key, baseUrl: BASE });
    expect(client.rateLimit).toBeNull();
    await client.data.list('orders');
    expect(client.rateLimit).toEqual({ limit: 100, remaining: 99, resetSeconds: 60 });
    await client.data.list('orders');
    expect(client.rateLimit).toMatchObject({ limit: 100, remaining: 98 });
  });

  it('stays null for a key without a limit', async () => {
    const client = new DataPlatform({ apiKey: mocks.apiKey, baseUrl: BASE });
    await client.data.list('orders');
    expect(client.rateLimit).toBeNull();
  });

  it('reads the headers of error answers too', async () => {
    const key = mocks.addKey({ scopes: ['data:read'], tier: 'starter' });
    const client = new DataPlatform({ apiKey: key, baseUrl: BASE });
    await expect(client.data.get('orders', 'missing')).rejects.toMatchObject({ status: 404 });
    expect(client.rateLimit).toEqual({ limit: 500, remaining: 499, resetSeconds: 60 });
  });
});

describe('waiting after a 429', () => {
  it('waits the Retry-After of the answer, then retries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/data/orders`, () => {
        calls++;
        return calls === 1 ? limited('60') : HttpResponse.json({ data: [], total: 0, limit: 50, skip: 0 });
      }),
    );
    const client = new DataPlatform({ apiKey: 'svc_test', baseUrl: BASE });
    const result = client.data.list('orders');
    await vi.advanceTimersByTimeAsync(59_999);
    expect(calls).toBe(1);
    expect(client.rateLimit).toEqual({ limit: 100, remaining: 0, resetSeconds: 42 });
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toMatchObject({ total: 0 });
    expect(calls).toBe(2);
  });

  it('gives up at once with RateLimitError when Retry-After is longer than maxRetryWait', async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/data/orders`, () => {
        calls++;
        return limited('60');
      }),
    );
    const client = new DataPlatform({ apiKey: 'svc_test', baseUrl: BASE, maxRetryWait: 5_000 });
    const error = await client.data.list('orders').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).code).toBe('rate_limited');
    expect((error as RateLimitError).headers.get('retry-after')).toBe('60');
    expect(calls).toBe(1);
    // The per-call option overrides the client's.
    await expect(
      new DataPlatform({ apiKey: 'svc_test', baseUrl: BASE }).data.list('orders', {}, { maxRetryWait: 0 }),
    ).rejects.toBeInstanceOf(RateLimitError);
    expect(calls).toBe(2);
  });

  it('meets the mocks’ limit of a free key after 100 requests', async () => {
    const key = mocks.addKey({ scopes: ['data:read'], tier: 'free' });
    const client = new DataPlatform({ apiKey: key, baseUrl: BASE, maxRetries: 0 });
    for (let i = 0; i < 100; i++) await client.data.list('orders');
    expect(client.rateLimit?.remaining).toBe(0);
    const error = await client.data.list('orders').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(client.rateLimit).toMatchObject({ limit: 100, remaining: 0 });
  });
});
