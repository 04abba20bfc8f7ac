import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { errors, MockAgent, setGlobalDispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, APIConnectionTimeoutError, DataPlatform, NotFoundError } from '../src/index.js';
import { type LocalServer, sendJson, startServer } from './helpers.js';

let local: LocalServer;
const doc = {
  _id: 'a',
  _createdAt: '2025-01-01T00:00:00.000Z',
  _updatedAt: '2025-01-01T00:00:00.000Z',
  n: 1,
};

beforeAll(async () => {
  local = await startServer((req, res, seen) => {
    if (req.url?.startsWith('/slow')) return; // never answers
    if (req.url === '/api/v1/data/orders/missing') {
      return sendJson(
        res,
        404,
        { error: 'Not found', code: 'not_found', requestId: 'req_404' },
        { 'x-request-id': 'req_404' },
      );
    }
    sendJson(
      res,
      req.method === 'POST' ? 201 : 200,
      { ...doc, echo: seen.body ? JSON.parse(seen.body) : null },
      { 'x-request-id': 'req_ok' },
    );
  });
});
afterEach(() => {
  local.seen.length = 0;
  vi.unstubAllGlobals();
});
afterAll(() => local.close());

describe('default transport on Node (undici)', () => {
  it('sends through undici, not fetch, when fetch is the built-in', async () => {
    const client = new DataPlatform({ baseUrl: local.url, apiKey: 'svc_k' });
    await expect(client.data.get('orders', 'a')).resolves.toMatchObject({ _id: 'a' });
    // Node's fetch always adds `sec-fetch-mode: cors`; undici's request() never does.
    expect(local.seen[0]!.headers['sec-fetch-mode']).toBeUndefined();
    expect(local.seen[0]!.headers['x-api-key']).toBe('svc_k');
  });

  it('keeps connections alive between calls', async () => {
    const client = new DataPlatform({ baseUrl: local.url });
    const before = local.connections();
    for (let i = 0; i < 10; i++) await client.data.get('orders', 'a');
    // undici's pool may open a second socket while the first is being released, but never one per call.
    expect(local.connections() - before).toBeLessThanOrEqual(2);
  });

  it('sends a JSON body with its content type and an Idempotency-Key', async () => {
    const client = new DataPlatform({ baseUrl: local.url });
    const created = await client.data.create('orders', { n: 2 });
    expect(created).toMatchObject({ echo: { n: 2 } });
    expect(local.seen[0]!.headers['content-type']).toBe('application/json');
    expect(local.seen[0]!.headers['idempotency-key']).toMatch(/\S/);
  });

  it('gives typed errors with headers and request id', async () => {
    const error = await new DataPlatform({ baseUrl: local.url }).data
      .get('orders', 'missing')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).headers).toBeInstanceOf(Headers);
    expect((error as NotFoundError).requestId).toBe('req_404');
  });

  it('gives raw responses', async () => {
    const client = new DataPlatform({ baseUrl: local.url });
    const response = await client.data.create('orders', { n: 1 }).asResponse();
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('req_ok');
    const { data, requestId } = await client.data.get('orders', 'a').withResponse();
    expect(data).toMatchObject({ _id: 'a' });
    expect(requestId).toBe('req_ok');
  });

  it('times out with APIConnectionTimeoutError (a short timeout: precise timer)', async () => {
    const client = new DataPlatform({ baseUrl: local.url, timeout: 100, maxRetries: 0 });
    await expect(client.get('/slow')).rejects.toBeInstanceOf(APIConnectionTimeoutError);
  });

  it("maps undici's own timeout errors (used for timeouts of 5 s and more) to APIConnectionTimeoutError", async () => {
    // Waiting out a real 5 s timer has no place in a unit test, and undici's timers ignore fake timers:
    // a MockAgent answers with the error undici's header timer raises.
    await withGlobalDispatcher(
      (agent) => {
        agent
          .get('http://mocked.test')
          .intercept({ path: '/x' })
          .replyWithError(new errors.HeadersTimeoutError());
      },
      async () => {
        const client = new DataPlatform({ baseUrl: 'http://mocked.test', maxRetries: 0 });
        await expect(client.get('/x')).rejects.toBeInstanceOf(APIConnectionTimeoutError);
      },
    );
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const result = new DataPlatform({ baseUrl: local.url })
      .get('/slow', { signal: controller.signal })
      .catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 20);
    expect(await result).toMatchObject({ name: 'APIUserAbortError' });
  });

  it('reports a refused connection with the address it tried', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const error = await new DataPlatform({ baseUrl: closed.url, maxRetries: 0 })
      .get('/x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain(`Connection refused by ${closed.url}`);
    expect((error as Error).message).not.toContain('DATAPLATFORM_BASE_URL');
  });

  it('honours a dispatcher installed with setGlobalDispatcher (a MockAgent here)', async () => {
    await withGlobalDispatcher(
      (agent) => {
        agent.get('http://mocked.test').intercept({ path: '/api/v1/data/orders/a' }).reply(200, doc);
      },
      async () => {
        await expect(
          new DataPlatform({ baseUrl: 'http://mocked.test' }).data.get('orders', 'a'),
        ).resolves.toEqual(doc);
      },
    );
  });
});

/** Runs `body` with a MockAgent as undici's global dispatcher, then puts the previous one back. */
async function withGlobalDispatcher(arrange: (agent: MockAgent) => void, body: () => Promise<void>) {
  const slots = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')];
  const global = globalThis as Record<symbol, unknown>;
  const previous = slots.map((slot) => global[slot]);
  const agent = new MockAgent();
  agent.disableNetConnect();
  arrange(agent);
  setGlobalDispatcher(agent);
  try {
    await body();
  } finally {
    slots.forEach((slot, i) => {
      global[slot] = previous[i];
    });
    await agent.close();
  }
}

describe('choosing the transport', () => {
  it('uses the fetch option when given', async () => {
    const fetch = vi.fn(globalThis.fetch);
    await new DataPlatform({ baseUrl: local.url, fetch }).data.get('orders', 'a');
    expect(fetch).toHaveBeenCalledOnce();
    expect(local.seen[0]!.headers['sec-fetch-mode']).toBe('cors');
  });

  it('uses globalThis.fetch when something replaced it, looked up per request', async () => {
    const client = new DataPlatform({ baseUrl: local.url });
    await client.data.get('orders', 'a'); // undici first
    const original = globalThis.fetch;
    const patched = vi.fn((input: string | URL | Request, init?: RequestInit) => original(input, init));
    vi.stubGlobal('fetch', patched);
    await client.data.get('orders', 'a');
    expect(patched).toHaveBeenCalledOnce();
  });

  it('is seen by MSW without any option', async () => {
    const server = setupServer(
      http.get('http://msw.test/api/v1/data/orders/a', () => HttpResponse.json({ ...doc, from: 'msw' })),
    );
    server.listen({ onUnhandledRequest: 'error' });
    try {
      await expect(
        new DataPlatform({ baseUrl: 'http://msw.test' }).data.get('orders', 'a'),
      ).resolves.toMatchObject({ from: 'msw' });
    } finally {
      server.close();
    }
    // With MSW gone, fetch is the built-in again and the real server answers through undici.
    await new DataPlatform({ baseUrl: local.url }).data.get('orders', 'a');
    expect(local.seen.at(-1)!.headers['sec-fetch-mode']).toBeUndefined();
  });
});
