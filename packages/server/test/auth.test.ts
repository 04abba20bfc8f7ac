import { crc32 } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, parseApiKey } from '../src/auth/api-key.js';
import { createAccountWithKey } from '../src/index.js';
import { forEachEngine, type TestServer } from './helpers.js';

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = await res.json();
  expect(body.code).toBe(code);
  expect(body.requestId).toBe(res.headers.get('x-request-id'));
  return body;
}

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  describe('credentials on data routes', () => {
    it('answers 401 unauthorized without a credential', async () => {
      await expectError(await t.call('GET', '/api/v1/data/orders', { key: null }), 401, 'unauthorized');
    });

    it.each([
      ['a random string', 'nope'],
      ['a well-formed key with a bad checksum', `svc_${'a'.repeat(54)}`],
    ])('answers 401 unauthorized for %s', async (_name, key) => {
      await expectError(await t.call('GET', '/api/v1/data/orders', { key }), 401, 'unauthorized');
    });

    it('answers 401 for a key whose id exists but whose secret differs', async () => {
      // Same key id, another secret, with a checksum that matches so that only the hash comparison can refuse it.
      const body = `${t.devKey.slice(0, 20)}${'Z'.repeat(32)}`;
      const forged = body + checksumOf(body);
      await expectError(await t.call('GET', '/api/v1/data/orders', { key: forged }), 401, 'unauthorized');
    });

    it('accepts the key as Authorization: Bearer svc_…', async () => {
      const res = await t.call('GET', '/api/v1/data/orders', {
        key: null,
        headers: { authorization: `Bearer ${t.devKey}` },
      });
      expect(res.status).toBe(200);
    });

    it('refuses a bearer value that is not a key and not a valid session token', async () => {
      await expectError(
        await t.call('GET', '/api/v1/data/orders', {
          key: null,
          headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.e30.' },
        }),
        401,
        'unauthorized',
      );
    });

    it('answers 403 insufficient_scope when the key lacks the route scope', async () => {
      const { apiKey } = await t.addKey({ scopes: ['data:read'] });
      expect((await t.call('GET', '/api/v1/data/orders', { key: apiKey })).status).toBe(200);
      const body = await expectError(
        await t.call('POST', '/api/v1/data/orders', { key: apiKey, body: { a: 1 } }),
        403,
        'insufficient_scope',
      );
      expect(body.error).toBe('Insufficient permissions for operation');
      expect(body.details).toEqual({ required: ['data:write'] });
      await expectError(
        await t.call('DELETE', '/api/v1/data/orders/x', { key: apiKey }),
        403,
        'insufficient_scope',
      );
    });

    it('treats database:read and database:write as aliases of data:read and data:write', async () => {
      const { apiKey } = await t.addKey({ scopes: ['database:read', 'database:write'] });
      expect((await t.call('POST', '/api/v1/data/aliases', { key: apiKey, body: { a: 1 } })).status).toBe(
        201,
      );
      expect((await t.call('GET', '/api/v1/data/aliases', { key: apiKey })).status).toBe(200);
    });

    it('answers 401 key_paused for a paused key and works again once resumed', async () => {
      const { keyId, apiKey } = await t.addKey({});
      await t.server.storage.keys.setStatus(keyId, 'paused');
      await expectError(await t.call('GET', '/api/v1/data/orders', { key: apiKey }), 401, 'key_paused');
      await t.server.storage.keys.setStatus(keyId, 'active');
      expect((await t.call('GET', '/api/v1/data/orders', { key: apiKey })).status).toBe(200);
    });

    it('answers 401 key_expired "API key has expired" for an expired key', async () => {
      const { apiKey } = await t.addKey({ expiresAt: new Date(Date.now() - 1000).toISOString() });
      const body = await expectError(
        await t.call('GET', '/api/v1/data/orders', { key: apiKey }),
        401,
        'key_expired',
      );
      expect(body.error).toBe('API key has expired');
    });

    it('checks the credential before the input', async () => {
      await expectError(
        await t.call('POST', '/api/v1/data/sql', { key: null, body: 'x' }),
        401,
        'unauthorized',
      );
    });
  });

  describe('tenancy', () => {
    it('never lets a key of one cluster read or write documents of another', async () => {
      const mine = await (await t.call('POST', '/api/v1/data/secrets', { body: { owner: 'dev' } })).json();
      const otherKey = t.other.apiKey;
      expect((await t.call('GET', `/api/v1/data/secrets/${mine._id}`, { key: otherKey })).status).toBe(404);
      expect(
        (await t.call('PUT', `/api/v1/data/secrets/${mine._id}`, { key: otherKey, body: { owner: 'x' } }))
          .status,
      ).toBe(404);
      expect(
        (await t.call('PATCH', `/api/v1/data/secrets/${mine._id}`, { key: otherKey, body: { owner: 'x' } }))
          .status,
      ).toBe(404);
      expect((await t.call('DELETE', `/api/v1/data/secrets/${mine._id}`, { key: otherKey })).status).toBe(
        404,
      );
      const theirs = await (await t.call('GET', '/api/v1/data/secrets', { key: otherKey })).json();
      expect(theirs).toMatchObject({ data: [], total: 0 });
      const created = await t.call('POST', '/api/v1/data/secrets', {
        key: otherKey,
        body: { _id: mine._id, owner: 'other' },
      });
      expect(created.status).toBe(201);
      expect(await (await t.call('GET', `/api/v1/data/secrets/${mine._id}`)).json()).toMatchObject({
        owner: 'dev',
      });
    });
  });

  describe('rate limits', () => {
    it('lets a free-tier key make 100 requests a minute, then answers 429 with Retry-After: 60', async () => {
      const { apiKey: key } = await createAccountWithKey(t.server.storage, {
        email: 'free@example.com',
        name: 'Free',
        password: 'long enough password',
      });
      const responses = await Promise.all(
        Array.from({ length: 120 }, () => t.call('GET', '/api/v1/data/limited', { key })),
      );
      const ok = responses.filter((r) => r.status === 200);
      const limited = responses.filter((r) => r.status === 429);
      expect(ok).toHaveLength(100);
      expect(limited).toHaveLength(120 - ok.length);
      expect(limited[0]!.headers.get('retry-after')).toBe('60');
      expect(limited[0]!.headers.get('ratelimit-limit')).toBe('100');
      expect(limited[0]!.headers.get('ratelimit-remaining')).toBe('0');
      expect((await limited[0]!.json()).code).toBe('rate_limited');
      expect(ok[0]!.headers.get('ratelimit-limit')).toBe('100');
      expect(Number(ok[0]!.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    });

    it('sends no RateLimit headers for the unlimited development key', async () => {
      const res = await t.call('GET', '/api/v1/data/limited');
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    });
  });

  /** Finds the checksum suffix that makes `body` a well-formed key, the way a forger with the format would. */
  function checksumOf(body: string): string {
    const sample = generateApiKey().secret;
    expect(parseApiKey(sample)).not.toBeNull();
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    let value = crc32(body);
    let out = '';
    for (let i = 0; i < 6; i++) {
      out = alphabet[value % 62] + out;
      value = Math.floor(value / 62);
    }
    expect(parseApiKey(body + out)).not.toBeNull();
    return out;
  }
});
