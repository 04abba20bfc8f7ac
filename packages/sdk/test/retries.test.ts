import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  ConflictError,
  DataPlatform,
  InternalServerError,
  RateLimitError,
} from '../src/index.js';

const BASE = 'http://api.test';
const server = setupServer();
const client = new DataPlatform({ baseUrl: BASE, apiKey: 'svc_test' });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Answers with each response in turn (the last one repeats) and records every request. */
function sequence(
  method: 'get' | 'post' | 'put' | 'patch' | 'delete',
  path: string,
  answers: (() => Response)[],
) {
  const requests: Request[] = [];
  server.use(
    http[method](BASE + path, ({ request }) => {
      requests.push(request.clone());
      return (answers[requests.length - 1] ?? answers[answers.length - 1]!)();
    }),
  );
  return requests;
}

// `retry-after-ms: 0` keeps these tests instant; the waits themselves are tested with fake timers in backoff.test.ts.
const fail =
  (status: number, code = 'x', headers: Record<string, string> = {}) =>
  () =>
    HttpResponse.json(
      { error: 'failed', code, requestId: 'req_1' },
      { status, headers: { 'retry-after-ms': '0', ...headers } },
    );
const ok = () => HttpResponse.json({ _id: 'a', _createdAt: 't', _updatedAt: 't' });

describe('retries', () => {
  it.each([408, 409, 429, 500, 502, 503])('retries %i and returns the later success', async (status) => {
    const requests = sequence('get', '/api/v1/data/orders/a', [fail(status), ok]);
    await expect(client.data.get('orders', 'a')).resolves.toMatchObject({ _id: 'a' });
    expect(requests).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 413])('does not retry %i', async (status) => {
    const requests = sequence('get', '/api/v1/data/orders/a', [fail(status), ok]);
    await expect(client.data.get('orders', 'a')).rejects.toMatchObject({ status });
    expect(requests).toHaveLength(1);
  });

  it.each(['conflict', 'idempotency_mismatch', 'transaction_aborted'])(
    'does not retry 409 %s',
    async (code) => {
      const requests = sequence('post', '/api/v1/data/orders', [fail(409, code), ok]);
      await expect(client.data.create('orders', { a: 1 })).rejects.toBeInstanceOf(ConflictError);
      expect(requests).toHaveLength(1);
    },
  );

  it('gives up after maxRetries (2 by default) with the last error', async () => {
    const requests = sequence('get', '/api/v1/data/orders/a', [fail(500, 'internal_error')]);
    const error = await client.data.get('orders', 'a').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ code: 'internal_error', requestId: 'req_1' });
    expect(requests).toHaveLength(3);
  });

  it('takes maxRetries from the client and from the call', async () => {
    const requests = sequence('get', '/api/v1/data/orders/a', [fail(503)]);
    await expect(client.data.get('orders', 'a', { maxRetries: 0 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(requests).toHaveLength(1);
    await expect(client.withOptions({ maxRetries: 4 }).data.get('orders', 'a')).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(requests).toHaveLength(6);
  });

  it('throws APIConnectionError when the connection keeps failing', async () => {
    sequence('get', '/api/v1/data/orders/a', [() => HttpResponse.error()]);
    await expect(client.data.get('orders', 'a', { maxRetries: 0 })).rejects.toBeInstanceOf(
      APIConnectionError,
    );
  });

  it('does not retry a 429 whose Retry-After is longer than a minute', async () => {
    const requests = sequence('get', '/api/v1/data/orders', [
      fail(429, 'rate_limited', { 'retry-after-ms': '', 'retry-after': '3600' }),
    ]);
    const error = await client.data.list('orders').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).headers.get('retry-after')).toBe('3600');
    expect(requests).toHaveLength(1);
  });
});

describe('Idempotency-Key', () => {
  it('sends one key with every attempt of a write', async () => {
    const requests = sequence('post', '/api/v1/data/orders', [fail(500), fail(503), ok]);
    await client.data.create('orders', { a: 1 });
    const keys = requests.map((request) => request.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it('uses a new key for each call', async () => {
    const requests = sequence('post', '/api/v1/data/orders', [ok]);
    await client.data.create('orders', { a: 1 });
    await client.data.create('orders', { a: 1 });
    expect(requests[0]!.headers.get('idempotency-key')).not.toBe(requests[1]!.headers.get('idempotency-key'));
  });

  it('adds a key to PUT, PATCH and DELETE but not to GET', async () => {
    const put = sequence('put', '/api/v1/data/orders/a', [ok]);
    const patch = sequence('patch', '/api/v1/data/orders/a', [ok]);
    const del = sequence('delete', '/api/v1/data/orders/a', [
      () => HttpResponse.json({ _id: 'a', deleted: true }),
    ]);
    const get = sequence('get', '/api/v1/data/orders/a', [ok]);
    await client.data.replace('orders', 'a', { b: 1 });
    await client.data.update('orders', 'a', { b: 2 });
    await client.data.delete('orders', 'a');
    await client.data.get('orders', 'a');
    for (const requests of [put, patch, del])
      expect(requests[0]!.headers.get('idempotency-key')).toMatch(/\S/);
    expect(get[0]!.headers.has('idempotency-key')).toBe(false);
  });

  it('uses the idempotencyKey option when given', async () => {
    const requests = sequence('post', '/api/v1/data/orders', [fail(500), ok]);
    await client.data.create('orders', { a: 1 }, { idempotencyKey: 'mine' });
    expect(requests.map((request) => request.headers.get('idempotency-key'))).toEqual(['mine', 'mine']);
  });
});
