import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  DataPlatform,
  DataPlatformError,
  DEFAULT_BASE_URL,
  type Fetch,
} from '../src/index.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A fetch that records each request and answers 200 `{}`. */
function recorder() {
  const seen: { url: string; init: RequestInit; headers: Headers }[] = [];
  const fetch: Fetch = async (url, init) => {
    seen.push({ url, init, headers: new Headers(init.headers) });
    return new Response('{}', { status: 200 });
  };
  return { fetch, seen };
}

describe('options and environment', () => {
  it('reads the key, the token and the base address from the environment', async () => {
    vi.stubEnv('DATAPLATFORM_API_KEY', 'svc_env');
    vi.stubEnv('DATAPLATFORM_TOKEN', 'tok_env');
    vi.stubEnv('DATAPLATFORM_BASE_URL', 'http://env.test:9000/');
    const { fetch, seen } = recorder();
    const client = new DataPlatform({ fetch });
    expect(client.baseUrl).toBe('http://env.test:9000');
    await client.data.get('orders', 'a');
    expect(seen[0]!.url).toBe('http://env.test:9000/api/v1/data/orders/a');
    expect(seen[0]!.headers.get('x-api-key')).toBe('svc_env');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok_env');
  });

  it('prefers options over the environment', async () => {
    vi.stubEnv('DATAPLATFORM_API_KEY', 'svc_env');
    vi.stubEnv('DATAPLATFORM_BASE_URL', 'http://env.test');
    const { fetch, seen } = recorder();
    await new DataPlatform({ fetch, apiKey: 'svc_opt', baseUrl: 'http://opt.test/prefix' }).get('/x');
    expect(seen[0]!.url).toBe('http://opt.test/prefix/x');
    expect(seen[0]!.headers.get('x-api-key')).toBe('svc_opt');
  });

  it('defaults to http://localhost:5000 and sends no credential when none is set', async () => {
    vi.stubEnv('DATAPLATFORM_API_KEY', '');
    vi.stubEnv('DATAPLATFORM_TOKEN', '');
    vi.stubEnv('DATAPLATFORM_BASE_URL', '');
    const { fetch, seen } = recorder();
    const client = new DataPlatform({ fetch });
    expect(client.baseUrl).toBe(DEFAULT_BASE_URL);
    await client.get('/x');
    expect(seen[0]!.headers.has('x-api-key')).toBe(false);
    expect(seen[0]!.headers.has('authorization')).toBe(false);
  });

  it('refuses a base address that is not an absolute http(s) URL', () => {
    expect(() => new DataPlatform({ baseUrl: 'localhost:5000' })).toThrow(/Invalid baseUrl/);
    expect(() => new DataPlatform({ baseUrl: '/api' })).toThrow(DataPlatformError);
  });

  it('layers default headers, then per-call headers; null removes one', async () => {
    const { fetch, seen } = recorder();
    const client = new DataPlatform({
      fetch,
      apiKey: 'svc_k',
      defaultHeaders: { 'X-Team': 'a', 'X-Trace': 't' },
    });
    await client.get('/x', { headers: { 'x-team': 'b', 'X-Trace': null, 'X-API-Key': 'svc_other' } });
    const { headers } = seen[0]!;
    expect(headers.get('x-team')).toBe('b');
    expect(headers.has('x-trace')).toBe(false);
    expect(headers.get('x-api-key')).toBe('svc_other');
    expect(headers.get('accept')).toBe('application/json');
  });

  it('withOptions() changes some options and keeps the others', async () => {
    const { fetch, seen } = recorder();
    const client = new DataPlatform({ fetch, apiKey: 'svc_k', baseUrl: 'http://a.test' });
    const other = client.withOptions({ baseUrl: 'http://b.test', maxRetries: 7 });
    expect(other.maxRetries).toBe(7);
    await other.get('/x');
    expect(seen[0]!.url).toBe('http://b.test/x');
    expect(seen[0]!.headers.get('x-api-key')).toBe('svc_k');
  });

  it('refuses ids a URL cannot carry instead of calling another route', () => {
    const { fetch } = recorder();
    const client = new DataPlatform({ fetch });
    expect(() => client.data.get('orders', '..')).toThrow(DataPlatformError);
    expect(() => client.data.delete('orders', '')).toThrow(DataPlatformError);
  });
});

describe('a refused connection to the default address', () => {
  const refused: Fetch = () =>
    Promise.reject(
      Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5000'), { code: 'ECONNREFUSED' }),
      }),
    );

  it('says the default was used and names the option and the variable', async () => {
    vi.stubEnv('DATAPLATFORM_BASE_URL', '');
    const error = await new DataPlatform({ fetch: refused, maxRetries: 0 })
      .get('/x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    const { message } = error as Error;
    expect(message).toContain('http://localhost:5000');
    expect(message).toContain('default');
    expect(message).toContain('baseUrl');
    expect(message).toContain('DATAPLATFORM_BASE_URL');
  });

  it('does not blame the default when the address was chosen', async () => {
    const error = await new DataPlatform({ fetch: refused, maxRetries: 0, baseUrl: 'http://localhost:5000' })
      .get('/x')
      .catch((e: unknown) => e);
    expect((error as Error).message).not.toContain('DATAPLATFORM_BASE_URL');
  });

  it('says so over a real socket too (undici transport), when port 5000 is free', async (context) => {
    vi.stubEnv('DATAPLATFORM_BASE_URL', '');
    if (!(await portIsFree(5000))) context.skip();
    const error = await new DataPlatform({ maxRetries: 0 }).get('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain('DATAPLATFORM_BASE_URL');
  });
});

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}
