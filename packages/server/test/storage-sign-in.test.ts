import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../src/index.js';
import { openStorage } from '../src/storage/index.js';
import type { PasskeyRecord } from '../src/storage/sign-in.js';
import type { Storage } from '../src/storage/types.js';
import { availableEngines, createTestDatabase } from './helpers.js';

/** The storage contract of sign-in flows, linked identities and passkeys, on every engine. */
describe.each(availableEngines())('sign-in storage on %s', (engine) => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-sign-in-storage-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    storage = await openStorage({
      dataDir,
      databaseUrl: database?.url,
      databasePoolSize: 5,
      sqliteSynchronous: 'NORMAL',
    });
    const password = 'long enough pw';
    alice = (await createAccountWithKey(storage, { email: 'alice@example.com', name: 'Alice', password }))
      .userId;
    bob = (await createAccountWithKey(storage, { email: 'bob@example.com', name: 'Bob', password })).userId;
    cleanup = async () => {
      await storage.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup());

  const passkey = (id: string, userId: string, counter = 0): PasskeyRecord => ({
    id,
    userId,
    name: `key ${id}`,
    publicKey: `pk-${id}`,
    counter,
    transports: ['internal', 'hybrid'],
    deviceType: 'multiDevice',
    backedUp: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUsedAt: null,
  });

  it('gives a flow once, only for its purpose and only before it expires, and purges expired ones', async () => {
    const payload = { verifier: 'v', nested: { to: '/account' } };
    await storage.signIn.createFlow({
      id: 'f1',
      purpose: 'oauth:google',
      payload,
      expiresAt: '2026-01-01T00:10:00.000Z',
    });
    await storage.signIn.createFlow({
      id: 'f2',
      purpose: 'oauth:google',
      payload,
      expiresAt: '2026-01-01T00:01:00.000Z',
    });
    await storage.signIn.createFlow({
      id: 'f3',
      purpose: 'passkey:register',
      payload,
      expiresAt: '2026-01-01T00:10:00.000Z',
    });
    const now = '2026-01-01T00:05:00.000Z';
    expect(await storage.signIn.takeFlow('f3', 'oauth:google', now)).toBeNull();
    expect(await storage.signIn.takeFlow('f2', 'oauth:google', now)).toBeNull();
    expect(await storage.signIn.takeFlow('f1', 'oauth:google', now)).toEqual({
      id: 'f1',
      purpose: 'oauth:google',
      payload,
      expiresAt: '2026-01-01T00:10:00.000Z',
    });
    expect(await storage.signIn.takeFlow('f1', 'oauth:google', now)).toBeNull();
    expect(await storage.signIn.purgeFlows('2026-01-01T00:05:00.000Z')).toBe(1);
    expect(await storage.signIn.takeFlow('f3', 'passkey:register', now)).not.toBeNull();
  });

  it('links an identity to one user and keeps the first link', async () => {
    const link = {
      provider: 'github',
      subject: '42',
      email: 'alice@example.com',
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    expect(await storage.signIn.findIdentity('github', '42')).toBeNull();
    await storage.signIn.linkIdentity({ ...link, userId: alice });
    await storage.signIn.linkIdentity({ ...link, userId: bob });
    expect(await storage.signIn.findIdentity('github', '42')).toBe(alice);
    expect(await storage.signIn.findIdentity('google', '42')).toBeNull();
  });

  it('keeps passkeys per user, moves a counter only from the value last seen, and deletes only the owner’s', async () => {
    await storage.signIn.addPasskey(passkey('cred-a1', alice, 5));
    await storage.signIn.addPasskey(passkey('cred-a2', alice));
    await storage.signIn.addPasskey(passkey('cred-b1', bob));
    expect(await storage.signIn.findPasskey('cred-a1')).toEqual(passkey('cred-a1', alice, 5));
    expect(await storage.signIn.findPasskey('nope')).toBeNull();
    expect((await storage.signIn.listPasskeys(alice)).map((p) => p.id).sort()).toEqual([
      'cred-a1',
      'cred-a2',
    ]);

    const usedAt = '2026-02-01T00:00:00.000Z';
    const uses = await Promise.all([
      storage.signIn.usePasskey('cred-a1', 5, 6, usedAt),
      storage.signIn.usePasskey('cred-a1', 5, 6, usedAt),
    ]);
    expect(uses.filter(Boolean)).toHaveLength(1);
    expect(await storage.signIn.usePasskey('cred-a1', 5, 7, usedAt)).toBe(false);
    expect(await storage.signIn.findPasskey('cred-a1')).toMatchObject({ counter: 6, lastUsedAt: usedAt });

    expect(await storage.signIn.deletePasskey(bob, 'cred-a1')).toBe(false);
    expect(await storage.signIn.deletePasskey(alice, 'cred-a1')).toBe(true);
    expect(await storage.signIn.deletePasskey(alice, 'cred-a1')).toBe(false);
    expect((await storage.signIn.listPasskeys(alice)).map((p) => p.id)).toEqual(['cred-a2']);
    expect((await storage.signIn.listPasskeys(bob)).map((p) => p.id)).toEqual(['cred-b1']);
  });
});
