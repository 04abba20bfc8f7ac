import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

afterEach(() => {
  vi.useRealTimers();
});

describe('rate limits', () => {
  it('gives a free-tier key 100 requests a minute with the RateLimit headers, then 429 rate_limited with Retry-After: 60', async () => {
    const key = mocks.addKey({ scopes: ['data:read'], tier: 'free' });
    const answers = [];
    for (let i = 0; i < 102; i++) answers.push(await call('GET', '/api/v1/data/orders', { key }));
    expect(answers.slice(0, 100).every((a) => a.status === 200)).toBe(true);
    expect(answers.slice(0, 100).map((a) => Number(a.headers.get('ratelimit-remaining')))).toEqual(
      Array.from({ length: 100 }, (_, i) => 99 - i),
    );
    const limited = answers[100]!;
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.body.error).toBe('Rate limit exceeded');
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('ratelimit-limit')).toBe('100');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(answers[101]!.status).toBe(429);
  });

  it('opens a new window a minute after the first request', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const key = mocks.addKey({ scopes: ['data:read'], tier: 'free' });
    for (let i = 0; i < 100; i++) await call('GET', '/api/v1/data/orders', { key });
    expect((await call('GET', '/api/v1/data/orders', { key })).status).toBe(429);
    vi.setSystemTime(Date.now() + 30_000);
    const waiting = await call('GET', '/api/v1/data/orders', { key });
    expect(waiting.headers.get('ratelimit-reset')).toBe('30');
    vi.setSystemTime(Date.now() + 30_000);
    const next = await call('GET', '/api/v1/data/orders', { key });
    expect(next.status).toBe(200);
    expect(next.headers.get('ratelimit-remaining')).toBe('99');
    expect(next.headers.get('ratelimit-reset')).toBe('60');
  });

  it.each([
    ['starter', '500'],
    ['pro', '2000'],
  ] as const)('limits a %s key to %s a minute', async (tier, limit) => {
    const key = mocks.addKey({ scopes: ['data:read'], tier });
    const answer = await call('GET', '/api/v1/data/orders', { key });
    expect(answer.headers.get('ratelimit-limit')).toBe(limit);
  });

  it('puts the headers on errors after authentication, as the server does, and none before', async () => {
    const key = mocks.addKey({ scopes: ['data:read'], tier: 'free' });
    const refused = await call('POST', '/api/v1/data/orders', { key, json: {} });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('ratelimit-remaining')).toBe('99');
    const missing = await call('GET', '/api/v1/data/orders/nope', { key });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit-remaining')).toBe('98');
    const paused = mocks.addKey({ scopes: ['data:read'], tier: 'free', status: 'paused' });
    expect(
      (await call('GET', '/api/v1/data/orders', { key: paused })).headers.get('ratelimit-limit'),
    ).toBeNull();
  });

  it('leaves the default key unlimited and without headers, like the development key', async () => {
    const answer = await call('GET', '/api/v1/data/orders');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('ratelimit-limit')).toBeNull();
  });
});
