import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/auth/api-key.js';
import { createAccountWithKey } from '../src/index.js';
import { openStorage } from '../src/storage/index.js';
import type { Storage, UsageEntry } from '../src/storage/types.js';
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

  const entry = (keyId: string, timestamp: string, status = 200): UsageEntry => ({
    keyId,
    method: 'GET',
    path: '/api/v1/data/x',
    outcome: status === 200 ? 'success' : 'denied',
    status,
    timestamp,
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
