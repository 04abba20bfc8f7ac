import {
  ApiKey,
  ApiKeyList,
  ApiKeyUsagePage,
  ApiKeyWithSecret,
  Robot,
  RobotList,
} from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';
import { expectError } from './key-helpers.js';

forEachEngine(
  (server) => {
    let t: TestServer;
    let user: SignedUp;
    beforeAll(async () => {
      t = server();
      user = await signUp(t);
    });

    /** A request with a session token (from `ip`, as a trusted proxy would pass it on, when given). */
    const as = (who: SignedUp, method: string, path: string, body?: unknown, ip?: string) =>
      t.call(method, path, {
        key: null,
        headers: { ...bearer(who.token), ...(ip ? { 'x-forwarded-for': ip } : {}) },
        body,
      });
    const createKey = async (
      who: SignedUp,
      body: unknown = { name: 'CI', scopes: ['data:read', 'data:write'] },
    ) => {
      const res = await as(who, 'POST', '/api/keys', body);
      expect(res.status).toBe(201);
      return ApiKeyWithSecret.parse(await res.json());
    };
    const listDocs = (apiKey: string) => t.call('GET', '/api/v1/data/orders', { key: apiKey });

    describe('/api/keys', () => {
      it('creates a key shown once, whose secret works on the data routes of the user cluster', async () => {
        const { key, secret } = await createKey(user);
        expect(key).toMatchObject({
          name: 'CI',
          status: 'active',
          prefix: `svc_${key._id}`,
          expiresAt: null,
        });
        expect(secret.startsWith(key.prefix)).toBe(true);
        const created = await t.call('POST', '/api/v1/data/orders', { key: secret, body: { total: 5 } });
        expect(created.status).toBe(201);
        const list = await listDocs(secret);
        expect(list.status).toBe(200);
        expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(1);
        // The same documents through the session token: the key acts on the user's own cluster.
        const viaSession = await as(user, 'GET', '/api/v1/data/orders');
        expect(((await viaSession.json()) as { data: unknown[] }).data).toHaveLength(1);
      });

      it('lists and gets keys without their secrets', async () => {
        const { key, secret } = await createKey(user, {
          name: 'listed',
          scopes: ['data:read'],
          expiresIn: '30d',
        });
        const list = await as(user, 'GET', '/api/keys');
        expect(list.status).toBe(200);
        const text = await list.text();
        expect(text).not.toContain(secret.slice(20));
        expect(ApiKeyList.parse(JSON.parse(text)).data.map((k) => k._id)).toContain(key._id);
        const one = await as(user, 'GET', `/api/keys/${key._id}`);
        expect(ApiKey.parse(await one.json())).toEqual(key);
        expect(key.expiresAt).not.toBeNull();
      });

      it('answers 400 for an invalid body or a cluster not theirs, 403 for scopes the user does not hold', async () => {
        await expectError(
          await as(user, 'POST', '/api/keys', { name: '', scopes: [] }),
          400,
          'validation_error',
        );
        await expectError(
          await as(user, 'POST', '/api/keys', { name: 'x', scopes: ['nope:nope'] }),
          400,
          'validation_error',
        );
        await expectError(
          await as(user, 'POST', '/api/keys', {
            name: 'x',
            scopes: ['data:read'],
            expiresIn: '30d',
            expiresAt: '2099-01-01T00:00:00.000Z',
          }),
          400,
          'validation_error',
        );
        await expectError(await as(user, 'POST', '/api/keys', [1]), 400, 'invalid_body');
        await expectError(
          await as(user, 'POST', '/api/keys', {
            name: 'x',
            scopes: ['data:read'],
            clusterId: t.other.clusterId,
          }),
          400,
          'validation_error',
        );
      });

      it('refuses API keys and missing credentials on every key route (401)', async () => {
        const { key } = await createKey(user);
        for (const [method, path] of [
          ['POST', '/api/keys'],
          ['GET', '/api/keys'],
          ['GET', `/api/keys/${key._id}`],
          ['POST', `/api/keys/${key._id}/pause`],
          ['POST', `/api/keys/${key._id}/resume`],
          ['POST', `/api/keys/${key._id}/rotate`],
          ['DELETE', `/api/keys/${key._id}`],
          ['GET', `/api/keys/${key._id}/usage`],
        ] as const) {
          await expectError(await t.call(method, path, { key: t.devKey }), 401, 'unauthorized');
          await expectError(await t.call(method, path, { key: null }), 401, 'unauthorized');
        }
        // Nothing happened to the key.
        expect(ApiKey.parse(await (await as(user, 'GET', `/api/keys/${key._id}`)).json()).status).toBe(
          'active',
        );
      });

      it("answers 404 for another user's key on every operation, and leaves it untouched", async () => {
        const { key, secret } = await createKey(user);
        const stranger = await signUp(t);
        for (const [method, path] of [
          ['GET', `/api/keys/${key._id}`],
          ['POST', `/api/keys/${key._id}/pause`],
          ['POST', `/api/keys/${key._id}/resume`],
          ['POST', `/api/keys/${key._id}/rotate`],
          ['DELETE', `/api/keys/${key._id}`],
          ['GET', `/api/keys/${key._id}/usage`],
        ] as const) {
          await expectError(await as(stranger, method, path), 404, 'not_found');
        }
        expect(ApiKeyList.parse(await (await as(stranger, 'GET', '/api/keys')).json()).data).toEqual([]);
        expect((await listDocs(secret)).status).toBe(200);
      });

      it('pause and resume take effect at once', async () => {
        const { key, secret } = await createKey(user);
        const paused = await as(user, 'POST', `/api/keys/${key._id}/pause`);
        expect(ApiKey.parse(await paused.json()).status).toBe('paused');
        await expectError(await listDocs(secret), 401, 'key_paused');
        // Pausing again changes nothing; rotating a paused key is a conflict.
        expect((await as(user, 'POST', `/api/keys/${key._id}/pause`)).status).toBe(200);
        await expectError(await as(user, 'POST', `/api/keys/${key._id}/rotate`), 409, 'conflict');
        const resumed = await as(user, 'POST', `/api/keys/${key._id}/resume`);
        expect(ApiKey.parse(await resumed.json()).status).toBe('active');
        expect((await listDocs(secret)).status).toBe(200);
      });

      it('rotate gives a new secret and the old one stops working at once', async () => {
        const { key, secret } = await createKey(user);
        expect((await listDocs(secret)).status).toBe(200);
        const res = await as(user, 'POST', `/api/keys/${key._id}/rotate`);
        expect(res.status).toBe(200);
        const rotated = ApiKeyWithSecret.parse(await res.json());
        expect(rotated.key._id).toBe(key._id);
        expect(rotated.key.lastRotatedAt).not.toBeNull();
        expect(rotated.secret).not.toBe(secret);
        await expectError(await listDocs(secret), 401, 'unauthorized');
        expect((await listDocs(rotated.secret)).status).toBe(200);
      });

      it('delete removes the key for good', async () => {
        const { key, secret } = await createKey(user);
        const res = await as(user, 'DELETE', `/api/keys/${key._id}`);
        expect(await res.json()).toEqual({ _id: key._id, deleted: true });
        await expectError(await listDocs(secret), 401, 'unauthorized');
        await expectError(await as(user, 'GET', `/api/keys/${key._id}`), 404, 'not_found');
        await expectError(await as(user, 'DELETE', `/api/keys/${key._id}`), 404, 'not_found');
      });

      it('usage lists success and denied entries, newest first, filtered and paged', async () => {
        const { key, secret } = await createKey(user, { name: 'reader', scopes: ['data:read'] });
        expect((await listDocs(secret)).status).toBe(200);
        const denied = await t.call('POST', '/api/v1/data/orders', { key: secret, body: { total: 1 } });
        await expectError(denied, 403, 'insufficient_scope');
        const usage = (query = '') => as(user, 'GET', `/api/keys/${key._id}/usage${query}`);
        await expect
          .poll(async () => ApiKeyUsagePage.parse(await (await usage()).json()).total, {
            timeout: 5000,
            interval: 50,
          })
          .toBe(2);
        const all = ApiKeyUsagePage.parse(await (await usage()).json());
        expect(all.data.map((e) => [e.method, e.path, e.outcome, e.status])).toEqual([
          ['POST', '/api/v1/data/orders', 'denied', 403],
          ['GET', '/api/v1/data/orders', 'success', 200],
        ]);
        const onlyDenied = ApiKeyUsagePage.parse(await (await usage('?outcome=denied')).json());
        expect(onlyDenied).toMatchObject({ total: 1, data: [{ outcome: 'denied' }] });
        const page = ApiKeyUsagePage.parse(await (await usage('?limit=1&skip=1')).json());
        expect(page).toMatchObject({ total: 2, data: [{ outcome: 'success' }] });
        await expectError(await usage('?outcome=maybe'), 400, 'validation_error');
        await expectError(await usage('?limit=0'), 400, 'validation_error');
        expect(ApiKey.parse(await (await as(user, 'GET', `/api/keys/${key._id}`)).json()).lastUsedAt).toBe(
          all.data[0]!.timestamp,
        );
      });

      it('answers 403 ip_blocked on every key route from an address outside the allowlist', async () => {
        const guarded = await signUp(t);
        const { key } = await createKey(guarded);
        const set = await as(
          guarded,
          'PUT',
          '/api/settings/ip-allowlist',
          { entries: ['203.0.113.0/24'] },
          '203.0.113.4',
        );
        expect(set.status).toBe(200);
        const outside = '198.51.100.9';
        for (const [method, path, body] of [
          ['POST', '/api/keys', { name: 'x', scopes: ['data:read'] }],
          ['GET', '/api/keys'],
          ['GET', `/api/keys/${key._id}`],
          ['POST', `/api/keys/${key._id}/pause`],
          ['POST', `/api/keys/${key._id}/resume`],
          ['POST', `/api/keys/${key._id}/rotate`],
          ['DELETE', `/api/keys/${key._id}`],
          ['GET', `/api/keys/${key._id}/usage`],
          ['POST', '/api/robots', { name: 'bot' }],
          ['GET', '/api/robots'],
        ] as const) {
          await expectError(await as(guarded, method, path, body, outside), 403, 'ip_blocked');
        }
        // Nothing was created, paused or deleted; from inside the list the routes answer.
        const inside = await as(guarded, 'GET', '/api/keys', undefined, '203.0.113.4');
        expect(ApiKeyList.parse(await inside.json()).data).toEqual([key]);
      });
    });

    describe('/api/robots', () => {
      it("creates robots with the owner's scopes by default, lists, gets and deletes them", async () => {
        const res = await as(user, 'POST', '/api/robots', { name: 'deployer' });
        expect(res.status).toBe(201);
        const robot = Robot.parse(await res.json());
        expect(robot._id).toMatch(/^rbt_/);
        expect(robot.scopes).toContain('data:write');
        expect(
          RobotList.parse(await (await as(user, 'GET', '/api/robots')).json()).data.map((r) => r._id),
        ).toContain(robot._id);
        expect(Robot.parse(await (await as(user, 'GET', `/api/robots/${robot._id}`)).json())).toEqual(robot);
        const deleted = await as(user, 'DELETE', `/api/robots/${robot._id}`);
        expect(await deleted.json()).toEqual({ _id: robot._id, deleted: true });
        await expectError(await as(user, 'GET', `/api/robots/${robot._id}`), 404, 'not_found');
      });

      it("gives a robot keys within its scopes, kept apart from the user's own, ended with the robot", async () => {
        const robot = Robot.parse(
          await (await as(user, 'POST', '/api/robots', { name: 'reader', scopes: ['data:read'] })).json(),
        );
        await expectError(
          await as(user, 'POST', `/api/robots/${robot._id}/keys`, { name: 'k', scopes: ['data:write'] }),
          403,
          'forbidden',
        );
        const created = await as(user, 'POST', `/api/robots/${robot._id}/keys`, {
          name: 'k',
          scopes: ['data:read'],
        });
        expect(created.status).toBe(201);
        const { key, secret } = ApiKeyWithSecret.parse(await created.json());
        expect((await listDocs(secret)).status).toBe(200);
        const robotKeys = ApiKeyList.parse(
          await (await as(user, 'GET', `/api/robots/${robot._id}/keys`)).json(),
        );
        expect(robotKeys.data).toEqual([key]);
        const own = ApiKeyList.parse(await (await as(user, 'GET', '/api/keys')).json());
        expect(own.data.map((k) => k._id)).not.toContain(key._id);
        await expectError(await as(user, 'POST', `/api/keys/${key._id}/pause`), 404, 'not_found');
        await as(user, 'DELETE', `/api/robots/${robot._id}`);
        await expectError(await listDocs(secret), 401, 'unauthorized');
        await expectError(await as(user, 'GET', `/api/robots/${robot._id}/keys`), 404, 'not_found');
      });

      it("answers 403 for scopes the owner lacks, 401 for API keys, 404 for another user's robot", async () => {
        await expectError(
          await as(user, 'POST', '/api/robots', { name: 'x', scopes: ['bogus'] }),
          400,
          'validation_error',
        );
        await expectError(await t.call('GET', '/api/robots', { key: t.devKey }), 401, 'unauthorized');
        const robot = Robot.parse(await (await as(user, 'POST', '/api/robots', { name: 'mine' })).json());
        const stranger = await signUp(t);
        for (const [method, path, body] of [
          ['GET', `/api/robots/${robot._id}`],
          ['DELETE', `/api/robots/${robot._id}`],
          ['GET', `/api/robots/${robot._id}/keys`],
          ['POST', `/api/robots/${robot._id}/keys`, { name: 'k', scopes: ['data:read'] }],
        ] as const) {
          await expectError(await as(stranger, method, path, body), 404, 'not_found');
        }
        expect((await as(user, 'GET', `/api/robots/${robot._id}`)).status).toBe(200);
      });
    });
  },
  // Requests carry the client address through a trusted proxy, so the allowlist can be tried from outside it.
  { config: { trustedProxies: ['127.0.0.1/32', '::1'] } },
);
