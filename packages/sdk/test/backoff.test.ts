import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionTimeoutError, APIUserAbortError, DataPlatform, type Fetch } from '../src/index.js';

// Fake timers and a scripted `fetch`: the test moves the clock and watches when each attempt is sent.
beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0); // no jitter: backoff is exactly 0.5 s, 1 s, 2 s …
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

type Step = Response | Error | 'hang';

/** A fetch that plays `steps` in order; 'hang' never answers but rejects when its signal aborts. */
function scripted(steps: (() => Step)[]) {
  const calls: RequestInit[] = [];
  const fetch: Fetch = (_url, init) => {
    calls.push(init);
    const step = (steps[calls.length - 1] ?? steps[steps.length - 1]!)();
    if (step === 'hang') {
      return new Promise((_, reject) =>
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    }
    return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
  };
  return { fetch, calls };
}

const json =
  (status: number, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(status < 400 ? { ok: true } : { error: 'no', code: 'x', requestId: 'r' }), {
      status,
      headers,
    });
const refused = () =>
  Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  });

describe('waits between attempts', () => {
  it('honours Retry-After in seconds', async () => {
    const { fetch, calls } = scripted([json(429, { 'retry-after': '3' }), json(200)]);
    const result = new DataPlatform({ baseUrl: 'http://api.test', fetch }).get('/x');
    await vi.advanceTimersByTimeAsync(2999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await expect(result).resolves.toEqual({ ok: true });
  });

  it('honours Retry-After as an HTTP date', async () => {
    vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
    const { fetch, calls } = scripted([
      json(503, { 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }),
      json(200),
    ]);
    const result = new DataPlatform({ baseUrl: 'http://api.test', fetch }).get('/x');
    await vi.advanceTimersByTimeAsync(9999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await result;
  });

  it('honours retry-after-ms', async () => {
    const { fetch, calls } = scripted([
      json(500, { 'retry-after-ms': '1200', 'retry-after': '30' }),
      json(200),
    ]);
    const result = new DataPlatform({ baseUrl: 'http://api.test', fetch }).get('/x');
    await vi.advanceTimersByTimeAsync(1199);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await result;
  });

  it('backs off exponentially without a Retry-After', async () => {
    const { fetch, calls } = scripted([json(500), json(500), json(500), json(200)]);
    const result = new DataPlatform({ baseUrl: 'http://api.test', fetch, maxRetries: 3 }).get('/x');
    const sentAt: number[] = [];
    for (let ms = 0; ms <= 3500; ms += 100) {
      while (sentAt.length < calls.length) sentAt.push(ms);
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(sentAt).toEqual([0, 500, 1500, 3500]);
    await expect(result).resolves.toEqual({ ok: true });
  });

  it('retries a refused connection after backoff', async () => {
    const { fetch, calls } = scripted([refused, json(200)]);
    const result = new DataPlatform({ baseUrl: 'http://api.test', fetch }).get('/x');
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(2);
  });
});

describe('timeouts', () => {
  it('times out an attempt after `timeout` and retries it', async () => {
    const { fetch, calls } = scripted([() => 'hang', json(200)]);
    const result = new DataPlatform({ baseUrl: 'http://api.test', fetch, timeout: 1000 }).get('/x');
    await vi.advanceTimersByTimeAsync(1000 + 500);
    await expect(result).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(2);
  });

  it('throws APIConnectionTimeoutError when every attempt times out, with the per-call timeout', async () => {
    const { fetch, calls } = scripted([() => 'hang']);
    const client = new DataPlatform({ baseUrl: 'http://api.test', fetch, timeout: 60_000 });
    const result = client.get('/x', { timeout: 100, maxRetries: 1 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100 + 500 + 100);
    expect(await result).toBeInstanceOf(APIConnectionTimeoutError);
    expect(calls).toHaveLength(2);
  });
});

describe('AbortSignal', () => {
  it('aborts a call in flight with APIUserAbortError and does not retry', async () => {
    const { fetch, calls } = scripted([() => 'hang']);
    const controller = new AbortController();
    const result = new DataPlatform({ baseUrl: 'http://api.test', fetch })
      .get('/x', { signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    expect(await result).toBeInstanceOf(APIUserAbortError);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(1);
  });

  it('ends the wait between retries', async () => {
    const { fetch, calls } = scripted([json(500, { 'retry-after': '30' })]);
    const controller = new AbortController();
    const result = new DataPlatform({ baseUrl: 'http://api.test', fetch })
      .get('/x', { signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000);
    controller.abort();
    expect(await result).toBeInstanceOf(APIUserAbortError);
    expect(calls).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { fetch, calls } = scripted([json(200)]);
    const error = await new DataPlatform({ baseUrl: 'http://api.test', fetch })
      .get('/x', { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(calls).toHaveLength(0);
  });
});
