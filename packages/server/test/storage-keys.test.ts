import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/auth/api-key.js';
import { createAccountWithKey } from '../src/index.js';
import { openStorage } from '../src/storage/index.js';
import type { Storage } from '../src/storage/types.js';
import type { UsageRecord } from '../src/storage/usage.js';
import { availableEngines, createTestDatabase } from './helpers.js';

/** The key, usage and robot stores: every engine must pass these through the one storage interface. */
describe.each(availableEngines())('key storage contract on %s', (engine) => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let userId: string;
  let clusterId: string;
  let seq = 0;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-keys-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    storage = await openStorage({
      dataDir,
      databaseUrl: database?.url,
      databasePoolSize: 5,
      sqliteSynchronous: 'NORMAL',
    });
    ({ userId, clusterId } = await createAccountWithKey(storage, {
      email: 'keys@example.com',
      name: 'K',
      password: 'long enough password',
    }));
    cleanup = async () => {
      await storage.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup());

  async function newKey(robotId: string | null = null) {
    const key = generateApiKey();
    await storage.keys.create({
      id: key.id,
      clusterId,
      ownerId: userId,
      robotId,
      name: `k${++seq}`,
      scopes: ['data:read'],
      secretHash: key.hash,
      createdAt: new Date().toISOString(),
      expiresAt: null,
    });
    return key;
  }

  const entry = (keyId: string, timestamp: string, status = 200, path = '/api/v1/data/x'): UsageRecord => ({
    keyId,
    method: 'GET',
    path,
    status,
    at: Date.parse(timestamp),
    ip: '127.0.0.1',
    userAgent: null,
  });

  it('rotates the stored hash so that authentication sees the new one at once, and reports missing keys', async () => {
    const key = await newKey();
    expect((await storage.keys.findForAuth(key.id))!.secretHash.equals(key.hash)).toBe(true);
    const next = generateApiKey(key.id);
    expect(await storage.keys.rotate(key.id, next.hash, '2026-05-01T00:00:00.000Z')).toBe(true);
    expect((await storage.keys.findForAuth(key.id))!.secretHash.equals(next.hash)).toBe(true);
    expect((await storage.keys.get({ userId, robotId: null }, key.id))!.lastRotatedAt).toBe(
      '2026-05-01T00:00:00.000Z',
    );
    expect(await storage.keys.rotate('missing', next.hash, '2026-05-01T00:00:00.000Z')).toBe(false);
  });

  it('forgets a deleted key for authentication at once, with its usage', async () => {
    const key = await newKey();
    await storage.usage.record([entry(key.id, '2026-01-01T00:00:00.000Z')]);
    expect(await storage.keys.findForAuth(key.id)).not.toBeNull();
    expect(await storage.keys.delete(key.id)).toBe(true);
    expect(await storage.keys.findForAuth(key.id)).toBeNull();
    expect(await storage.keys.delete(key.id)).toBe(false);
    expect((await storage.usage.list(key.id, { limit: 10, skip: 0 })).total).toBe(0);
  });

  it('writes a batch of usage across keys, moves lastUsedAt to the latest entry only, and skips deleted keys', async () => {
    const a = await newKey();
    const b = await newKey();
    const gone = await newKey();
    await storage.keys.delete(gone.id);
    await storage.usage.record([
      entry(a.id, '2026-01-01T00:00:02.000Z'),
      entry(b.id, '2026-01-01T00:00:01.000Z', 403),
      entry(gone.id, '2026-01-01T00:00:01.500Z'),
      entry(a.id, '2026-01-01T00:00:03.000Z', 429),
    ]);
    // An older batch arriving late does not move lastUsedAt back.
    await storage.usage.record([entry(a.id, '2026-01-01T00:00:00.500Z')]);
    const owner = { userId, robotId: null };
    expect((await storage.keys.get(owner, a.id))!.lastUsedAt).toBe('2026-01-01T00:00:03.000Z');
    expect((await storage.keys.get(owner, b.id))!.lastUsedAt).toBe('2026-01-01T00:00:01.000Z');
    const history = await storage.usage.list(a.id, { limit: 10, skip: 0 });
    expect(history.total).toBe(3);
    expect(history.rows.map((row) => [row.timestamp, row.status, row.outcome])).toEqual([
      ['2026-01-01T00:00:03.000Z', 429, 'denied'],
      ['2026-01-01T00:00:02.000Z', 200, 'success'],
      ['2026-01-01T00:00:00.500Z', 200, 'success'],
    ]);
    expect(await storage.usage.list(a.id, { outcome: 'denied', limit: 10, skip: 0 })).toMatchObject({
      total: 1,
    });
    expect((await storage.usage.list(gone.id, { limit: 10, skip: 0 })).total).toBe(0);
  });

  it('merges batches that overlap in time, as several instances write them, into one newest-first history', async () => {
    const key = await newKey();
    const at = (second: number) => `2026-02-01T00:00:${String(second).padStart(2, '0')}.000Z`;
    // Instance A answered at 1, 3, 5, 7 s; instance B at 2, 4, 6 s (4 s denied); A's batch is written first.
    await storage.usage.record([1, 3, 5, 7].map((s) => entry(key.id, at(s), 200, `/a/${s}`)));
    await storage.usage.record([2, 4, 6].map((s) => entry(key.id, at(s), s === 4 ? 403 : 200, `/b/${s}`)));
    await storage.usage.record([entry(key.id, at(8), 200, '/a/8')]);
    const paths = async (query: { outcome?: 'success' | 'denied'; limit: number; skip: number }) =>
      (await storage.usage.list(key.id, query)).rows.map((row) => row.path);
    expect(await paths({ limit: 10, skip: 0 })).toEqual([
      '/a/8',
      '/a/7',
      '/b/6',
      '/a/5',
      '/b/4',
      '/a/3',
      '/b/2',
      '/a/1',
    ]);
    expect(await paths({ limit: 3, skip: 2 })).toEqual(['/b/6', '/a/5', '/b/4']);
    expect(await paths({ limit: 2, skip: 6 })).toEqual(['/b/2', '/a/1']);
    expect(await paths({ limit: 2, skip: 8 })).toEqual([]);
    expect(await paths({ outcome: 'success', limit: 3, skip: 3 })).toEqual(['/a/5', '/a/3', '/b/2']);
    expect(await storage.usage.list(key.id, { outcome: 'denied', limit: 5, skip: 0 })).toEqual({
      total: 1,
      rows: [
        {
          method: 'GET',
          path: '/b/4',
          outcome: 'denied',
          status: 403,
          timestamp: at(4),
          ip: '127.0.0.1',
          userAgent: null,
        },
      ],
    });
    expect((await storage.usage.list(key.id, { outcome: 'success', limit: 1, skip: 0 })).total).toBe(7);
  });

  it('deletes a robot with its keys in one go, and only for its owner', async () => {
    await storage.robots.create({
      id: `rbt_${seq}`,
      ownerId: userId,
      name: 'r',
      scopes: ['data:read'],
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const robotId = `rbt_${seq}`;
    const key = await newKey(robotId);
    expect((await storage.keys.list({ userId, robotId })).map((k) => k.id)).toEqual([key.id]);
    expect(await storage.keys.findForAuth(key.id)).not.toBeNull();
    expect(await storage.robots.delete('usr_other', robotId)).toBe(false);
    expect(await storage.robots.delete(userId, robotId)).toBe(true);
    expect(await storage.keys.findForAuth(key.id)).toBeNull();
    expect(await storage.robots.get(userId, robotId)).toBeNull();
  });

  it("finds the user's default cluster and refuses a cluster the user does not own", async () => {
    expect(await storage.accounts.ownedCluster(userId, null)).toBe(clusterId);
    expect(await storage.accounts.ownedCluster(userId, clusterId)).toBe(clusterId);
    expect(await storage.accounts.ownedCluster(userId, 'cls_elsewhere')).toBeNull();
    expect(await storage.accounts.ownedCluster('usr_nobody', null)).toBeNull();
  });
});
