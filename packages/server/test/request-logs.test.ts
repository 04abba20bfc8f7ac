import { RequestLogEntry, RequestLogList } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { requestLogRetention } from '../src/maintenance.js';
import { bearer, forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';
import { expectError } from './key-helpers.js';

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  const as = (who: SignedUp, method: string, path: string, body?: unknown) =>
    t.call(method, path, { key: null, headers: bearer(who.token), body });
  const newKey = async (who: SignedUp, scopes: string[]) => {
    const res = await as(who, 'POST', '/api/keys', { name: 'logs', scopes });
    expect(res.status, await res.clone().text()).toBe(201);
    const body = (await res.json()) as { key: { _id: string }; secret: string };
    return { id: body.key._id, secret: body.secret };
  };
  const logs = async (who: SignedUp, query = '') => {
    await t.server.app.requestLog!.flush();
    const res = await as(who, 'GET', `/api/logs/requests${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return RequestLogList.parse(await res.json());
  };

  describe('the request log', () => {
    it('keeps every request with its method, path, status, duration, key, address, agent and request id', async () => {
      const who = await signUp(t);
      const key = await newKey(who, ['data:read', 'data:write']);
      const headers = { 'user-agent': 'logs-test/1.0', 'x-request-id': 'req-logs-known-1' };
      const made = await t.call('POST', '/api/v1/data/orders', { key: key.secret, body: { n: 1 }, headers });
      expect(made.status).toBe(201);
      const page = await logs(who, `?keyId=${key.id}`);
      expect(page.total).toBe(1);
      expect(page.data[0]).toMatchObject({
        method: 'POST',
        path: '/api/v1/data/orders',
        status: 201,
        keyId: key.id,
        userId: null,
        ip: '127.0.0.1',
        userAgent: 'logs-test/1.0',
        requestId: 'req-logs-known-1',
      });
      expect(page.data[0]!.durationMs).toBeGreaterThanOrEqual(0);
      const one = await as(who, 'GET', '/api/logs/requests/req-logs-known-1');
      expect(one.status).toBe(200);
      expect(RequestLogEntry.parse(await one.json()).keyId).toBe(key.id);
      // The user's own dashboard requests are theirs too.
      const mine = await logs(who, '?path=/api/keys&method=POST');
      expect(mine.data.map((e) => [e.method, e.path, e.status, e.userId])).toEqual([
        ['POST', '/api/keys', 201, who.user._id],
      ]);
    });

    it('filters by status (code or class), method, path prefix, key and time, newest first', async () => {
      const who = await signUp(t);
      const key = await newKey(who, ['data:read']);
      const started = new Date().toISOString();
      for (const path of ['/api/v1/data/a', '/api/v1/data/b', '/api/v1/data/a/missing'])
        await t.call('GET', path, { key: key.secret });
      const denied = await t.call('POST', '/api/v1/data/a', { key: key.secret, body: {} });
      expect(denied.status).toBe(403);
      const all = await logs(who, `?keyId=${key.id}`);
      expect(all.data.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
        'POST /api/v1/data/a 403',
        'GET /api/v1/data/a/missing 404',
        'GET /api/v1/data/b 200',
        'GET /api/v1/data/a 200',
      ]);
      expect((await logs(who, `?keyId=${key.id}&status=4xx`)).total).toBe(2);
      expect((await logs(who, `?keyId=${key.id}&status=404`)).data[0]!.path).toBe('/api/v1/data/a/missing');
      expect((await logs(who, `?keyId=${key.id}&method=GET`)).total).toBe(3);
      expect((await logs(who, `?keyId=${key.id}&path=/api/v1/data/a`)).total).toBe(3);
      expect((await logs(who, `?keyId=${key.id}&from=${started}`)).total).toBe(4);
      expect((await logs(who, `?keyId=${key.id}&to=${started}`)).total).toBe(0);
      const page = await logs(who, `?keyId=${key.id}&limit=1&skip=1`);
      expect(page).toMatchObject({ total: 4, limit: 1, skip: 1 });
      await expectError(await as(who, 'GET', '/api/logs/requests?status=4x'), 400, 'validation_error');
      await expectError(
        await as(who, 'GET', `/api/logs/requests?from=${new Date().toISOString()}&to=${started}`),
        400,
        'validation_error',
      );
    });

    it('never keeps a secret: credential-like query values and keys pasted anywhere are redacted', async () => {
      const who = await signUp(t);
      const key = await newKey(who, ['data:read']);
      await t.call(
        'GET',
        `/api/v1/data/orders?limit=2&token=s3cr3t-token&api_key=${key.secret}&note=${key.secret}&password=pw`,
        { key: key.secret },
      );
      await t.call('GET', `/api/v1/data/${key.secret}`, { key: key.secret });
      const page = await logs(who, `?keyId=${key.id}`);
      const text = JSON.stringify(page);
      expect(text).not.toContain(key.secret);
      expect(text).not.toContain('s3cr3t-token');
      expect(page.data.map((e) => e.path)).toEqual([
        '/api/v1/data/[redacted]',
        '/api/v1/data/orders?limit=2&token=[redacted]&api_key=[redacted]&note=[redacted]&password=[redacted]',
      ]);
      // Sign-in bodies are never kept, and no entry holds a session token.
      const signin = await t.call('POST', '/api/auth/signin', {
        key: null,
        body: { email: who.email, password: who.password },
      });
      const { token } = (await signin.json()) as { token: string };
      const mine = JSON.stringify(await logs(who));
      expect(mine).not.toContain(who.password);
      expect(mine).not.toContain(token);
      expect(mine).not.toContain(who.token);
    });

    it("shows a user only their own requests and their clusters' (404 for another's request id)", async () => {
      const ada = await signUp(t);
      const bob = await signUp(t);
      const key = await newKey(ada, ['data:read']);
      await t.call('GET', '/api/v1/data/private', {
        key: key.secret,
        headers: { 'x-request-id': 'req-ada-only' },
      });
      expect((await logs(bob, `?keyId=${key.id}`)).total).toBe(0);
      await expectError(await as(bob, 'GET', '/api/logs/requests/req-ada-only'), 404, 'not_found');
      expect((await as(ada, 'GET', '/api/logs/requests/req-ada-only')).status).toBe(200);
    });

    it('answers a key with logs:read the requests of its cluster, and refuses a key without', async () => {
      const who = await signUp(t);
      const reader = await newKey(who, ['logs:read']);
      const writer = await newKey(who, ['data:write']);
      await t.call('POST', '/api/v1/data/orders', { key: writer.secret, body: { n: 1 } });
      await t.server.app.requestLog!.flush();
      const res = await t.call('GET', `/api/v1/logs/requests?keyId=${writer.id}`, { key: reader.secret });
      expect(res.status, await res.clone().text()).toBe(200);
      const page = RequestLogList.parse(await res.json());
      expect(page.data.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
        'POST /api/v1/data/orders 201',
      ]);
      await expectError(
        await t.call('GET', '/api/v1/logs/requests', { key: writer.secret }),
        403,
        'insufficient_scope',
      );
    });

    it('forgets entries older than the retention', async () => {
      const who = await signUp(t);
      const key = await newKey(who, ['data:read']);
      await t.call('GET', '/api/v1/data/recent', { key: key.secret });
      await t.server.app.requestLog!.flush();
      const day = 86_400_000;
      const old = (days: number, id: string) => ({
        id,
        at: Date.now() - days * day,
        method: 'GET',
        path: '/api/v1/data/old',
        status: 200,
        durationMs: 1,
        keyId: key.id,
        userId: null,
        clusterId: null as string | null,
        ip: '127.0.0.1',
        userAgent: null,
        requestId: id,
      });
      const clusterId = await clusterOf(who);
      // As the server writes them: each write holds what was answered within a fraction of a second.
      await t.server.storage.requestLogs.append([{ ...old(8, `rl_old8_${t.engine}`), clusterId }]);
      await t.server.storage.requestLogs.append([{ ...old(6, `rl_old6_${t.engine}`), clusterId }]);
      expect((await logs(who, `?keyId=${key.id}`)).total).toBe(3);
      await requestLogRetention(7).run(t.server.storage, new Date());
      const left = await logs(who, `?keyId=${key.id}`);
      expect(left.data.map((e) => e.path)).toEqual(['/api/v1/data/recent', '/api/v1/data/old']);
    });
  });

  async function clusterOf(who: SignedUp): Promise<string> {
    const res = await as(who, 'GET', '/api/clusters');
    return ((await res.json()) as { data: { _id: string }[] }).data[0]!._id;
  }
});
