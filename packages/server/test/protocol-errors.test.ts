import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

/** Sends a raw request with node:http (fetch refuses some of what a client may send) and reads the answer. */
function rawRequest(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string> },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${options.path}`, {
      method: options.method ?? 'GET',
      headers: options.headers,
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  /** The answer is the API's error shape, with the code given and the request id in the body and the header. */
  function expectApiError(
    answer: { status: number; headers: Record<string, unknown>; body: string },
    status: number,
    code: string,
  ) {
    const body = JSON.parse(answer.body);
    expect({ status: answer.status, code: body.code }).toEqual({ status, code });
    expect(body).toEqual({
      error: expect.any(String),
      code,
      requestId: expect.any(String),
      ...(body.details ? { details: body.details } : {}),
    });
    expect(answer.headers['x-request-id']).toBe(body.requestId);
  }

  describe('requests refused before they reach a route', () => {
    it('answers a path that does not decode with 400 validation_error in the API shape', async () => {
      const answer = await rawRequest(t.url, {
        path: '/api/v1/data/orders/%ff',
        headers: { 'x-api-key': t.devKey },
      });
      expectApiError(answer, 400, 'validation_error');
    });

    it('answers a path segment over 2048 characters with 414 uri_too_long, before any credential check', async () => {
      const answer = await rawRequest(t.url, { path: `/api/v1/data/orders/${'x'.repeat(2049)}` });
      expectApiError(answer, 414, 'uri_too_long');
    });

    it('answers headers over 16 KiB with 431 headers_too_large in the API shape', async () => {
      const answer = await rawRequest(t.url, {
        path: '/api/v1/data/orders',
        headers: { 'x-api-key': t.devKey, 'x-padding': 'p'.repeat(20_000) },
      });
      expectApiError(answer, 431, 'headers_too_large');
    });
  });

  describe('methods a path does not have', () => {
    it.each([
      ['DELETE', '/api/v1/data/orders', 'GET, HEAD, POST'],
      ['POST', '/api/v1/data/orders/abc', 'DELETE, GET, HEAD, PATCH, PUT'],
      ['GET', '/api/auth/logout', 'POST'],
      ['PUT', '/api/v1/data/webhooks', 'GET, HEAD, POST'],
      ['PATCH', '/api/auth/me', 'GET, HEAD'],
      // A concrete path is its own resource: the collection route's methods do not leak into its Allow.
      ['OPTIONS', '/api/v1/data/batch', 'POST'],
      ['OPTIONS', '/api/v1/data/sql', 'POST'],
      ['DELETE', '/api/v1/data/jobs', 'GET, HEAD'],
      // Methods a concrete path lacks are 405 even where the router would take them to the collection routes.
      ['GET', '/api/v1/data/sql', 'POST'],
      ['GET', '/api/v1/data/batch', 'POST'],
      ['POST', '/api/v1/data/jobs', 'GET, HEAD'],
      ['PUT', '/api/v1/data/jobs/job_1', 'GET, HEAD'],
      ['PUT', '/api/v1/data/webhooks/wh_1', 'DELETE'],
    ])('answers %s %s with 405 method_not_allowed and Allow: %s', async (method, path, allow) => {
      const res = await t.call(method, path);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      const body = await res.json();
      expect(body).toMatchObject({ code: 'method_not_allowed', details: { allowed: allow.split(', ') } });
      expect(body.requestId).toBe(res.headers.get('x-request-id'));
    });

    it('answers a method no route has with 405 before reading its body, even a QUERY without a Content-Type', async () => {
      const answer = await rawRequest(t.url, {
        method: 'QUERY',
        path: '/api/v1/data/sql',
        headers: { 'x-api-key': t.devKey },
      });
      expectApiError(answer, 405, 'method_not_allowed');
      expect(answer.headers.allow).toBe('POST');
      const big = await t.call('PUT', '/api/v1/data/sql', {
        body: 'x'.repeat(2 * 1024 * 1024),
        headers: { 'content-type': 'text/plain' },
      });
      expect(big.status).toBe(405);
    });

    it('still serves a document whose id is a word of another path, such as "import"', async () => {
      const created = await t.call('POST', '/api/v1/data/words', { body: { _id: 'import', n: 1 } });
      expect(created.status).toBe(201);
      const got = await t.call('GET', '/api/v1/data/words/import');
      expect([got.status, (await got.json())._id]).toEqual([200, 'import']);
      expect((await t.call('PATCH', '/api/v1/data/words/import', { body: { n: 2 } })).status).toBe(200);
      expect((await t.call('DELETE', '/api/v1/data/words/import')).status).toBe(200);
    });

    it('still answers an unknown path with 404 not_found', async () => {
      const res = await t.call('GET', '/api/v2/nothing');
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('not_found');
    });
  });

  describe('media types', () => {
    it.each([
      ['POST', '/api/v1/data/sql', '{"sql":"SELECT * FROM orders"}'],
      ['POST', '/api/v1/data/batch', '{"operations":[{"op":"get","collection":"orders","id":"x"}]}'],
      ['POST', '/api/v1/data/webhooks', '{"url":"https://example.com","events":["*"]}'],
    ])('refuses a text/plain body on %s %s with 415 unsupported_media_type', async (method, path, body) => {
      const res = await t.call(method, path, { body, headers: { 'content-type': 'text/plain' } });
      expect(res.status).toBe(415);
      expect((await res.json()).code).toBe('unsupported_media_type');
    });
  });
});
