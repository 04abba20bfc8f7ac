import { afterEach, describe, expect, it } from 'vitest';
import { APIConnectionError, APIUserAbortError, DataPlatform, InternalServerError } from '../src/index.js';
import { type LocalServer, startServer } from './helpers.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ID = /^req_[0-9a-f]{12}[0-9a-z]{8}$/;

describe('requestId on errors', () => {
  it('is the X-Request-Id the SDK sent when the answer names none, the same on every attempt', async () => {
    server = await startServer((_req, res) => {
      res
        .writeHead(502, { 'content-type': 'text/html', 'retry-after-ms': '0' })
        .end('<html>Bad gateway</html>');
    });
    const client = new DataPlatform({ baseUrl: server.url, apiKey: 'svc_test', maxRetries: 1 });
    const error = await client.data.get('orders', 'o-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    const sent = server.seen.map((request) => request.headers['x-request-id']);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(ID);
    expect(sent[1]).toBe(sent[0]);
    expect((error as InternalServerError).requestId).toBe(sent[0]);
  });

  it('gives every call its own id', async () => {
    server = await startServer((_req, res) => res.writeHead(200).end('{}'));
    const client = new DataPlatform({ baseUrl: server.url, apiKey: 'svc_test' });
    await client.data.get('orders', 'a');
    await client.data.create('orders', {});
    const [first, second] = server.seen.map((request) => request.headers['x-request-id']);
    expect(first).toMatch(ID);
    expect(second).toMatch(ID);
    expect(second).not.toBe(first);
  });

  it('is there when no answer arrived', async () => {
    server = await startServer(() => {});
    const url = server.url;
    await server.close();
    server = undefined;
    const client = new DataPlatform({ baseUrl: url, apiKey: 'svc_test', maxRetries: 0 });
    const refused = await client.data.get('orders', 'a').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(APIConnectionError);
    expect((refused as APIConnectionError).requestId).toMatch(ID);
    const aborted = await client.data
      .get('orders', 'a', { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(APIUserAbortError);
    expect((aborted as APIUserAbortError).requestId).toMatch(ID);
  });

  it("is the caller's own X-Request-Id when it sent one", async () => {
    server = await startServer((_req, res) => res.writeHead(503).end(''));
    const client = new DataPlatform({ baseUrl: server.url, apiKey: 'svc_test', maxRetries: 0 });
    const error = await client.data
      .get('orders', 'a', { headers: { 'X-Request-Id': 'trace-42' } })
      .catch((e: unknown) => e);
    expect(server.seen[0]?.headers['x-request-id']).toBe('trace-42');
    expect((error as InternalServerError).requestId).toBe('trace-42');
  });
});
