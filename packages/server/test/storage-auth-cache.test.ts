import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { generateApiKey } from '../src/auth/api-key.js';
import { createAccountWithKey } from '../src/index.js';
import { openStorage } from '../src/storage/index.js';
import type { Storage } from '../src/storage/types.js';
import { availableEngines, createTestDatabase } from './helpers.js';

const options = { databasePoolSize: 3, sqliteSynchronous: 'NORMAL' as const };

/** Opens storage on a fresh database of the engine; `another()` opens a second instance on the same database. */
async function openFresh(engine: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-auth-cache-'));
  const database = engine === 'postgres' ? await createTestDatabase() : undefined;
  const opened: Storage[] = [];
  const open = async () => {
    const storage = await openStorage({ ...options, dataDir, databaseUrl: database?.url });
    opened.push(storage);
    return storage;
  };
  return {
    storage: await open(),
    another: open,
    async close() {
      for (const storage of opened) await storage.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Makes an account and a key of it in `storage`; returns the user and the key's id. */
async function accountWithKey(storage: Storage, email: string) {
  const { userId, clusterId } = await createAccountWithKey(storage, {
    email,
    name: 'C',
    password: 'long enough password',
  });
  const newKey = async (robotId: string | null = null) => {
    const key = generateApiKey();
    await storage.keys.create({
      id: key.id,
      clusterId,
      ownerId: userId,
      robotId,
      name: key.id,
      scopes: ['data:read'],
      secretHash: key.hash,
      createdAt: new Date().toISOString(),
      expiresAt: null,
    });
    return key.id;
  };
  return { userId, newKey };
}

/** The authentication cache in front of every engine: answers from memory, forgotten by every write that matters. */
describe.each(availableEngines())('authentication cache on %s', (engine) => {
  let fresh: Awaited<ReturnType<typeof openFresh>>;
  let storage: Storage;
  let account: Awaited<ReturnType<typeof accountWithKey>>;

  beforeAll(async () => {
    fresh = await openFresh(engine);
    storage = fresh.storage;
    account = await accountWithKey(storage, 'cache@example.com');
  }, 60_000);
  afterAll(() => fresh?.close());

  /** Reads the key for authentication twice: the second answer must come from the cache. */
  async function cached(keyId: string) {
    const first = await storage.keys.findForAuth(keyId);
    expect(first).not.toBeNull();
    expect(storage.keys.cachedForAuth(keyId)).toBe(first);
    expect(await storage.keys.findForAuth(keyId)).toBe(first);
    return first!;
  }

  it('answers a key from memory, the same object each time', async () => {
    const keyId = await account.newKey();
    expect(storage.keys.cachedForAuth(keyId)).toBeUndefined();
    await cached(keyId);
  });

  it('forgets a cached key when it is paused, resumed, rotated or deleted', async () => {
    const keyId = await account.newKey();
    await cached(keyId);
    await storage.keys.setStatus(keyId, 'paused');
    expect(storage.keys.cachedForAuth(keyId)).toBeUndefined();
    expect((await cached(keyId)).status).toBe('paused');

    await storage.keys.setStatus(keyId, 'active');
    expect(storage.keys.cachedForAuth(keyId)).toBeUndefined();
    expect((await cached(keyId)).status).toBe('active');

    const next = generateApiKey(keyId);
    await storage.keys.rotate(keyId, next.hash, new Date().toISOString());
    expect(storage.keys.cachedForAuth(keyId)).toBeUndefined();
    expect((await cached(keyId)).secretHash.equals(next.hash)).toBe(true);

    await storage.keys.delete(keyId);
    expect(storage.keys.cachedForAuth(keyId)).toBeUndefined();
    expect(await storage.keys.findForAuth(keyId)).toBeNull();
  });

  it('forgets cached keys when a key is created, so a new key is read in full', async () => {
    const keyId = await account.newKey();
    await cached(keyId);
    await account.newKey();
    expect(storage.keys.cachedForAuth(keyId)).toBeUndefined();
  });

  it('forgets cached keys when the owner’s plan changes, and answers the new tier', async () => {
    const keyId = await account.newKey();
    expect((await cached(keyId)).tier).toBe('free');
    await storage.accounts.setPlan(account.userId, 'team', new Date().toISOString());
    expect(storage.keys.cachedForAuth(keyId)).toBeUndefined();
    expect((await cached(keyId)).tier).toBe('pro');
    await storage.accounts.setPlan(account.userId, 'free', new Date().toISOString());
  });

  it('forgets cached keys when an account is created', async () => {
    const keyId = await account.newKey();
    await cached(keyId);
    await accountWithKey(storage, `other-${engine}@example.com`);
    expect(storage.keys.cachedForAuth(keyId)).toBeUndefined();
  });

  it('forgets the keys of a robot when the robot is deleted', async () => {
    const robotId = `r_${engine}`;
    const createdAt = new Date().toISOString();
    await storage.robots.create({ id: robotId, ownerId: account.userId, name: 'bot', scopes: [], createdAt });
    const keyId = await account.newKey(robotId);
    await cached(keyId);
    expect(await storage.robots.delete(account.userId, robotId)).toBe(true);
    expect(storage.keys.cachedForAuth(keyId)).toBeUndefined();
    expect(await storage.keys.findForAuth(keyId)).toBeNull();
  });

  it('keeps what the answer holds when nothing that matters is written', async () => {
    const keyId = await account.newKey();
    const first = await cached(keyId);
    await storage.usage.record([
      { keyId, method: 'GET', path: '/x', status: 200, at: Date.now(), ip: '127.0.0.1', userAgent: null },
    ]);
    await storage.notifications.create({
      id: `n_${engine}`,
      userId: account.userId,
      kind: 'test',
      title: 't',
      body: 'm',
      link: null,
      data: {},
      createdAt: new Date().toISOString(),
    });
    expect(storage.keys.cachedForAuth(keyId)).toBe(first);
  });
});

/** Two instances on one PostgreSQL database: a write through one is forgotten by the other before it is answered. */
describe.skipIf(!inject('postgresUrl'))('authentication cache across instances on PostgreSQL', () => {
  let fresh: Awaited<ReturnType<typeof openFresh>>;
  let a: Storage;
  let b: Storage;
  let account: Awaited<ReturnType<typeof accountWithKey>>;

  beforeAll(async () => {
    fresh = await openFresh('postgres');
    a = fresh.storage;
    b = await fresh.another();
    account = await accountWithKey(a, 'instances@example.com');
  }, 60_000);
  afterAll(() => fresh?.close());

  async function cachedBy(storage: Storage, keyId: string) {
    const found = await storage.keys.findForAuth(keyId);
    expect(storage.keys.cachedForAuth(keyId)).toBe(found);
    return found!;
  }

  it('forgets on one instance a key paused, rotated or deleted through the other', async () => {
    const keyId = await account.newKey();
    await cachedBy(a, keyId);
    await b.keys.setStatus(keyId, 'paused');
    expect(a.keys.cachedForAuth(keyId)).toBeUndefined();
    expect((await cachedBy(a, keyId)).status).toBe('paused');

    const next = generateApiKey(keyId);
    await b.keys.rotate(keyId, next.hash, new Date().toISOString());
    expect(a.keys.cachedForAuth(keyId)).toBeUndefined();
    expect((await cachedBy(a, keyId)).secretHash.equals(next.hash)).toBe(true);

    await b.keys.delete(keyId);
    expect(a.keys.cachedForAuth(keyId)).toBeUndefined();
    expect(await a.keys.findForAuth(keyId)).toBeNull();
  });

  it('forgets on one instance a plan changed through the other', async () => {
    const keyId = await account.newKey();
    expect((await cachedBy(a, keyId)).tier).toBe('free');
    await b.accounts.setPlan(account.userId, 'team', new Date().toISOString());
    expect(a.keys.cachedForAuth(keyId)).toBeUndefined();
    expect((await cachedBy(a, keyId)).tier).toBe('pro');
  });

  it('caches nothing while its listening connection is lost, and caches again once it listens again', async () => {
    const keyId = await account.newKey();
    await cachedBy(a, keyId);
    const admin = postgres(inject('postgresUrl')!, { max: 1, onnotice: () => {} });
    try {
      await admin`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE query = 'LISTEN dataplatform_auth_changes' AND pid <> pg_backend_pid()`;
    } finally {
      await admin.end();
    }
    await vi.waitFor(() => expect(a.keys.cachedForAuth(keyId)).toBeUndefined());
    // Once it listens again, an instance caches and hears the other one as before.
    await vi.waitFor(
      async () => {
        const found = await a.keys.findForAuth(keyId);
        expect(a.keys.cachedForAuth(keyId)).toBe(found);
      },
      { timeout: 5_000, interval: 100 },
    );
    await vi.waitFor(
      async () => {
        const found = await b.keys.findForAuth(keyId);
        expect(b.keys.cachedForAuth(keyId)).toBe(found);
      },
      { timeout: 5_000, interval: 100 },
    );
    await b.keys.setStatus(keyId, 'paused');
    expect(a.keys.cachedForAuth(keyId)).toBeUndefined();
  });
});
