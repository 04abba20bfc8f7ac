import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey, KeyService, startServer } from '../src/index.js';
import { openStorage } from '../src/storage/index.js';
import { availableEngines, createTestDatabase, forEachEngine, type TestServer } from './helpers.js';
import { expectApiError, keyService, newAccount, usageOf } from './key-helpers.js';

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  describe('usage history', () => {
    it('records method, path, outcome, status, time, address and user agent of each request, newest first', async () => {
      const { owner, keyId, apiKey } = await newAccount(t, { plan: 'team' });
      const before = Date.now();
      const headers = { 'user-agent': 'usage-test/1.0' };
      expect((await t.call('GET', '/api/v1/data/usage?limit=5', { key: apiKey, headers })).status).toBe(200);
      expect((await t.call('GET', '/api/v1/data/usage/missing', { key: apiKey, headers })).status).toBe(404);
      expect((await t.call('POST', '/api/v1/data/usage', { key: apiKey, body: { a: 1 } })).status).toBe(201);
      const entries = await usageOf(t, owner, keyId, 3);
      expect(entries).toEqual([
        expect.objectContaining({
          method: 'POST',
          path: '/api/v1/data/usage',
          outcome: 'success',
          status: 201,
        }),
        expect.objectContaining({
          method: 'GET',
          path: '/api/v1/data/usage/missing',
          outcome: 'success',
          status: 404,
          userAgent: 'usage-test/1.0',
        }),
        expect.objectContaining({
          method: 'GET',
          path: '/api/v1/data/usage',
          outcome: 'success',
          status: 200,
        }),
      ]);
      for (const entry of entries) {
        expect(entry.ip).toBe('127.0.0.1');
        expect(Date.parse(entry.timestamp)).toBeGreaterThanOrEqual(before - 1);
      }
      const record = await keyService(t).get(owner, keyId);
      expect(record.lastUsedAt).toBe(entries[0]!.timestamp);
    });

    it('records refusals of a known key as denied: paused, expired, missing scope, rate limit', async () => {
      const { owner } = await newAccount(t);
      const keys = keyService(t);
      const reader = await keys.create(owner, { name: 'reader', scopes: ['data:read'] });
      expect((await t.call('POST', '/api/v1/data/u', { key: reader.secret, body: {} })).status).toBe(403);
      await keys.pause(owner, reader.key._id);
      expect((await t.call('GET', '/api/v1/data/u', { key: reader.secret })).status).toBe(401);
      const expiredNow = await keyService(t, () => Date.now() - 31 * 86_400_000).create(owner, {
        name: 'expired',
        scopes: ['data:read'],
        expiresIn: '30d',
      });
      expect((await t.call('GET', '/api/v1/data/u', { key: expiredNow.secret })).status).toBe(401);
      expect(
        (await usageOf(t, owner, reader.key._id, 2)).map((e) => [e.method, e.status, e.outcome]),
      ).toEqual([
        ['GET', 401, 'denied'],
        ['POST', 403, 'denied'],
      ]);
      expect((await usageOf(t, owner, expiredNow.key._id, 1))[0]).toMatchObject({
        status: 401,
        outcome: 'denied',
      });
    });

    it('records the requests refused by the rate limit, with their 429', async () => {
      const { owner, keyId, apiKey } = await newAccount(t);
      const answers = await Promise.all(
        Array.from({ length: 103 }, () => t.call('GET', '/api/v1/data/limited', { key: apiKey })),
      );
      expect(answers.filter((r) => r.status === 429)).toHaveLength(3);
      const entries = await usageOf(t, owner, keyId, 103);
      expect(entries.filter((e) => e.outcome === 'denied' && e.status === 429)).toHaveLength(3);
      expect(entries.filter((e) => e.outcome === 'success' && e.status === 200)).toHaveLength(100);
    });

    it('records nothing for a credential that is not a known key: unknown, rotated away or wrong secret', async () => {
      const { owner, keyId, apiKey } = await newAccount(t, { plan: 'team' });
      const keys = keyService(t);
      expect((await t.call('GET', '/api/v1/data/u', { key: apiKey })).status).toBe(200);
      await usageOf(t, owner, keyId, 1);
      const rotated = await keys.rotate(owner, keyId);
      expect((await t.call('GET', '/api/v1/data/u', { key: apiKey })).status).toBe(401);
      expect((await t.call('GET', '/api/v1/data/u', { key: rotated.secret })).status).toBe(200);
      const entries = await usageOf(t, owner, keyId, 2);
      expect(entries.map((e) => e.status)).toEqual([200, 200]);
    });

    it('pages and filters by outcome, with the total of the filter', async () => {
      const { owner } = await newAccount(t, { plan: 'team' });
      const keys = keyService(t);
      const { key, secret } = await keys.create(owner, { name: 'pager', scopes: ['data:read'] });
      for (let i = 0; i < 5; i++) await t.call('GET', `/api/v1/data/p${i}`, { key: secret });
      for (let i = 0; i < 2; i++) await t.call('POST', `/api/v1/data/d${i}`, { key: secret, body: {} });
      await usageOf(t, owner, key._id, 7);
      const page = await keys.usage(owner, key._id, { limit: '2', skip: '1' });
      expect(page.total).toBe(7);
      expect(page.data.map((e) => e.path)).toEqual(['/api/v1/data/d0', '/api/v1/data/p4']);
      const denied = await keys.usage(owner, key._id, { outcome: 'denied' });
      expect(denied.total).toBe(2);
      expect(denied.data.map((e) => e.path)).toEqual(['/api/v1/data/d1', '/api/v1/data/d0']);
      const success = await keys.usage(owner, key._id, { outcome: 'success', limit: 1 });
      expect(success).toMatchObject({ total: 5, data: [{ path: '/api/v1/data/p4' }] });
    });

    it.each([[{ outcome: 'maybe' }], [{ limit: 0 }], [{ limit: 1001 }], [{ skip: -1 }]])(
      'refuses the query %o with 400 validation_error',
      async (query) => {
        const { owner, keyId } = await newAccount(t);
        await expectApiError(keyService(t).usage(owner, keyId, query), 'validation_error');
      },
    );

    it('keeps the history of a paused key and drops it with a deleted key', async () => {
      const { owner } = await newAccount(t, { plan: 'team' });
      const keys = keyService(t);
      const { key, secret } = await keys.create(owner, { name: 'gone', scopes: ['data:read'] });
      await t.call('GET', '/api/v1/data/x', { key: secret });
      await usageOf(t, owner, key._id, 1);
      await keys.pause(owner, key._id);
      expect((await keys.usage(owner, key._id, {})).total).toBe(1);
      await keys.delete(owner, key._id);
      expect(await t.server.storage.usage.list(key._id, { limit: 10, skip: 0 })).toEqual({
        rows: [],
        total: 0,
      });
    });
  });
});

describe.each(availableEngines())('usage history at shutdown on %s', (engine) => {
  it('writes every recorded request when the server closes gracefully, even before the next flush', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-usage-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    const target = { dataDir, databaseUrl: database?.url };
    try {
      // A flush interval of a minute: only the close can write these entries.
      const server = await startServer(
        { ...target, port: 0, host: '127.0.0.1', logLevel: 'warn' },
        { usageFlushIntervalMs: 60_000 },
      );
      const { userId, keyId, apiKey } = await createAccountWithKey(server.storage, {
        email: 'shutdown@example.com',
        name: 'S',
        password: 'long enough password',
        plan: 'team',
      });
      const answers = await Promise.all(
        Array.from({ length: 25 }, () =>
          fetch(`${server.url}/api/v1/data/shutdown`, { headers: { 'x-api-key': apiKey } }),
        ),
      );
      expect(answers.every((r) => r.status === 200)).toBe(true);
      await server.close();
      const storage = await openStorage({ ...target, databasePoolSize: 2, sqliteSynchronous: 'FULL' });
      try {
        const usage = await new KeyService(storage).usage({ userId, robotId: null }, keyId, {});
        expect(usage.total).toBe(25);
      } finally {
        await storage.close();
      }
    } finally {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
