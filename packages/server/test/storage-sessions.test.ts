import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../src/index.js';
import { openStorage } from '../src/storage/index.js';
import type { Storage } from '../src/storage/types.js';
import { availableEngines, createTestDatabase } from './helpers.js';

/** The storage contract of sessions, reset tokens, activity and server secrets, on every engine. */
describe.each(availableEngines())('session storage on %s', (engine) => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let userId: string;
  let clusterId: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-sessions-storage-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    storage = await openStorage({
      dataDir,
      databaseUrl: database?.url,
      databasePoolSize: 5,
      sqliteSynchronous: 'NORMAL',
    });
    ({ userId, clusterId } = await createAccountWithKey(storage, {
      email: 'stored@example.com',
      name: 'Stored',
      password: 'long enough pw',
    }));
    cleanup = async () => {
      await storage.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup());

  const session = (id: string, expiresAt = '2999-01-01T00:00:00.000Z') => ({
    id,
    userId,
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt,
    ip: '127.0.0.1',
    userAgent: null,
  });

  it('ends one session, then all of a user’s, each only once', async () => {
    await storage.sessions.create(session('ses_a'));
    await storage.sessions.create(session('ses_b'));
    await storage.sessions.create(session('ses_c'));
    expect(await storage.sessions.revoke('ses_a', 'usr_other', '2026-02-01T00:00:00.000Z')).toBe(false);
    expect(await storage.sessions.revoke('ses_a', userId, '2026-02-01T00:00:00.000Z')).toBe(true);
    expect(await storage.sessions.revoke('ses_a', userId, '2026-02-01T00:00:00.000Z')).toBe(false);
    expect(await storage.sessions.revokeAll(userId, '2026-02-02T00:00:00.000Z')).toBe(2);
    expect(await storage.sessions.find('ses_a')).toMatchObject({ revokedAt: '2026-02-01T00:00:00.000Z' });
    expect(await storage.sessions.find('ses_c')).toMatchObject({ revokedAt: '2026-02-02T00:00:00.000Z' });
    expect(await storage.sessions.find('ses_none')).toBeNull();
  });

  it('finds the session with the default cluster, a named own cluster, and no foreign one', async () => {
    await storage.sessions.create(session('ses_data'));
    const found = await storage.sessions.findForData('ses_data', null);
    expect(found).toMatchObject({
      userId,
      cluster: { id: clusterId, status: 'running' },
      billing: { plan: 'free' },
    });
    expect((await storage.sessions.findForData('ses_data', clusterId))?.cluster?.id).toBe(clusterId);
    expect((await storage.sessions.findForData('ses_data', 'cls_foreign'))?.cluster).toBeNull();
  });

  it('uses a reset token once, even when two uses race, and applies everything with it', async () => {
    await storage.sessions.create(session('ses_reset'));
    await storage.accounts.setIpAllowlist(userId, ['10.0.0.1'], '2026-01-01T00:00:00.000Z');
    await storage.sessions.createReset({
      tokenHash: 'hash-1',
      userId,
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2999-01-01T00:00:00.000Z',
    });
    const activity = (id: string) => ({
      id,
      action: 'password.reset',
      createdAt: '2026-03-01T00:00:00.000Z',
      ip: '127.0.0.1',
      userAgent: null,
      details: {},
    });
    const input = (id: string) => ({
      tokenHash: 'hash-1',
      passwordHash: `new-hash-${id}`,
      now: '2026-03-01T00:00:00.000Z',
      activity: activity(id),
    });
    const results = await Promise.all([
      storage.sessions.completeReset(input('act_r1')),
      storage.sessions.completeReset(input('act_r2')),
    ]);
    const done = results.filter((r) => r !== null);
    expect(done).toHaveLength(1);
    expect(done[0]!.userId).toBe(userId);
    expect((await storage.sessions.find('ses_reset'))?.revokedAt).toBe('2026-03-01T00:00:00.000Z');
    expect(await storage.accounts.ipAllowlist(userId)).toEqual([]);
    expect((await storage.accounts.findByEmail('stored@example.com'))?.passwordHash).toMatch(
      /^new-hash-act_r/,
    );
    const log = await storage.sessions.listActivity(userId, { limit: 10, skip: 0 });
    expect(log.rows.filter((r) => r.action === 'password.reset')).toHaveLength(1);
  });

  it('refuses an expired reset token and changes nothing', async () => {
    await storage.sessions.createReset({
      tokenHash: 'hash-old',
      userId,
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:30:00.000Z',
    });
    const before = (await storage.accounts.findByEmail('stored@example.com'))!.passwordHash;
    const result = await storage.sessions.completeReset({
      tokenHash: 'hash-old',
      passwordHash: 'never',
      now: '2026-01-01T00:31:00.000Z',
      activity: {
        id: 'act_old',
        action: 'password.reset',
        createdAt: '2026-01-01T00:31:00.000Z',
        ip: '::1',
        userAgent: null,
        details: {},
      },
    });
    expect(result).toBeNull();
    expect((await storage.accounts.findByEmail('stored@example.com'))!.passwordHash).toBe(before);
  });

  it('purges sessions and reset tokens that ended before the given instant', async () => {
    await storage.sessions.create(session('ses_old', '2026-01-02T00:00:00.000Z'));
    await storage.sessions.create(session('ses_live'));
    expect(await storage.sessions.purgeEnded('2026-06-01T00:00:00.000Z')).toBeGreaterThanOrEqual(3);
    expect(await storage.sessions.find('ses_old')).toBeNull();
    expect(await storage.sessions.find('ses_a')).toBeNull(); // ended in February
    expect(await storage.sessions.find('ses_live')).not.toBeNull();
  });

  it('keeps the first server secret made, whoever asks later', async () => {
    const first = await storage.secrets.getOrCreate('test-secret', () => 'one');
    const second = await storage.secrets.getOrCreate('test-secret', () => 'two');
    expect([first, second]).toEqual(['one', 'one']);
  });
});
