import { beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../src/auth/api-key.js';
import type { KeyService } from '../src/index.js';
import { forEachEngine, type TestServer } from './helpers.js';
import { expectApiError, expectError, keyService, newAccount, usageOf } from './key-helpers.js';

const DAY = 86_400_000;

/** The API key state table of the specification, row by row, through the key service and the data API. */
forEachEngine((server) => {
  let t: TestServer;
  let keys: KeyService;
  beforeAll(() => {
    t = server();
    keys = keyService(t);
  });
  const read = (key: string) => t.call('GET', '/api/v1/data/lifecycle', { key });

  describe('the specification’s key state table', () => {
    it('(none) → create with name, scopes and optional expiry → Active; the value is shown once', async () => {
      const { owner } = await newAccount(t);
      const { key, secret } = await keys.create(owner, {
        name: 'ci',
        scopes: ['data:read'],
        expiresIn: '30d',
      });
      expect(secret).toMatch(/^svc_[0-9A-Za-z]{54}$/);
      expect(key).toMatchObject({
        name: 'ci',
        prefix: secret.slice(0, 20),
        scopes: ['data:read'],
        status: 'active',
        lastUsedAt: null,
        lastRotatedAt: null,
      });
      expect(Date.parse(key.expiresAt!) - Date.parse(key.createdAt)).toBe(30 * DAY);
      expect((await read(secret)).status).toBe(200);
      // Never shown again: neither the record, the list nor the storage holds the secret.
      const shown = JSON.stringify([await keys.get(owner, key._id), await keys.list(owner)]);
      expect(shown).not.toContain(secret.slice(20));
      expect(shown).not.toContain('secret');
    });

    it('Active → pause → Paused: the key stops working (401 key_paused) and its usage is kept', async () => {
      const { owner } = await newAccount(t);
      const { key, secret } = await keys.create(owner, { name: 'p', scopes: ['data:read'] });
      expect((await read(secret)).status).toBe(200);
      await usageOf(t, owner, key._id, 1);
      expect((await keys.pause(owner, key._id)).status).toBe('paused');
      await expectError(await read(secret), 401, 'key_paused');
      const history = await usageOf(t, owner, key._id, 2);
      expect(history.map((entry) => [entry.status, entry.outcome])).toEqual([
        [401, 'denied'],
        [200, 'success'],
      ]);
    });

    it('Paused → resume → Active: the key works again', async () => {
      const { owner } = await newAccount(t);
      const { key, secret } = await keys.create(owner, { name: 'r', scopes: ['data:read'] });
      await keys.pause(owner, key._id);
      await expectError(await read(secret), 401, 'key_paused');
      expect((await keys.resume(owner, key._id)).status).toBe('active');
      expect((await read(secret)).status).toBe(200);
    });

    it('Active → rotate → Active with a new value: the old value stops working at once', async () => {
      const { owner } = await newAccount(t);
      const { key, secret: old } = await keys.create(owner, { name: 'rot', scopes: ['data:read'] });
      expect((await read(old)).status).toBe(200);
      const rotated = await keys.rotate(owner, key._id);
      expect(rotated.secret).not.toBe(old);
      expect(rotated.key).toMatchObject({ _id: key._id, status: 'active', prefix: key.prefix });
      expect(rotated.key.lastRotatedAt).not.toBeNull();
      await expectError(await read(old), 401, 'unauthorized');
      expect((await read(rotated.secret)).status).toBe(200);
    });

    it.each(['active', 'paused'] as const)(
      '%s → delete → Removed: permanent, requests with it answer 401 unauthorized',
      async (state) => {
        const { owner } = await newAccount(t);
        const { key, secret } = await keys.create(owner, { name: 'd', scopes: ['data:read'] });
        if (state === 'paused') await keys.pause(owner, key._id);
        expect(await keys.delete(owner, key._id)).toEqual({ _id: key._id, deleted: true });
        await expectError(await read(secret), 401, 'unauthorized');
        await expectApiError(keys.get(owner, key._id), 'not_found');
        await expectApiError(keys.delete(owner, key._id), 'not_found');
        expect((await keys.list(owner)).data.map((k) => k._id)).not.toContain(key._id);
      },
    );

    it('Active → expiry date reached → Expired: 401 key_expired "API key has expired"', async () => {
      const { owner } = await newAccount(t);
      // Made 31 days ago with a 30-day expiry, by a service whose clock is a month behind.
      const past = keyService(t, () => Date.now() - 31 * DAY);
      const { key, secret } = await past.create(owner, {
        name: 'e',
        scopes: ['data:read'],
        expiresIn: '30d',
      });
      const body = await expectError(await read(secret), 401, 'key_expired');
      expect(body.error).toBe('API key has expired');
      expect((await keys.get(owner, key._id)).status).toBe('expired');
    });
  });

  describe('creating keys', () => {
    it.each([
      ['never', null],
      ['90d', 90 * DAY],
    ] as const)('sets the expiry for expiresIn %s', async (expiresIn, ms) => {
      const { owner } = await newAccount(t);
      const { key } = await keys.create(owner, { name: 'x', scopes: ['data:read'], expiresIn });
      expect(key.expiresAt === null ? null : Date.parse(key.expiresAt) - Date.parse(key.createdAt)).toBe(ms);
    });

    it('counts 1y as a calendar year', async () => {
      const { owner } = await newAccount(t);
      const at = Date.parse('2028-02-29T12:00:00.000Z');
      const { key } = await keyService(t, () => at).create(owner, {
        name: 'y',
        scopes: ['data:read'],
        expiresIn: '1y',
      });
      expect(key.expiresAt).toBe('2029-03-01T12:00:00.000Z');
    });

    it('takes any future instant as expiresAt and refuses a past one or both fields', async () => {
      const { owner } = await newAccount(t);
      const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
      expect((await keys.create(owner, { name: 'c', scopes: ['data:read'], expiresAt })).key.expiresAt).toBe(
        expiresAt,
      );
      const pastAt = new Date(Date.now() - 1000).toISOString();
      await expectApiError(
        keys.create(owner, { name: 'c', scopes: ['data:read'], expiresAt: pastAt }),
        'validation_error',
      );
      await expectApiError(
        keys.create(owner, { name: 'c', scopes: ['data:read'], expiresAt, expiresIn: '30d' }),
        'validation_error',
      );
    });

    it.each([
      ['no name', { scopes: ['data:read'] }],
      ['a blank name', { name: '  ', scopes: ['data:read'] }],
      ['no scopes', { name: 'n', scopes: [] }],
      ['an unknown scope', { name: 'n', scopes: ['data:reed'] }],
      ['a repeated scope', { name: 'n', scopes: ['data:read', 'data:read'] }],
      ['an unknown expiry choice', { name: 'n', scopes: ['data:read'], expiresIn: '7d' }],
      ['an unknown field', { name: 'n', scopes: ['data:read'], owner: 'x' }],
    ])('refuses %s with 400 validation_error', async (_what, body) => {
      const { owner } = await newAccount(t);
      await expectApiError(keys.create(owner, body), 'validation_error');
    });

    it('refuses a body that is not an object with 400 invalid_body', async () => {
      const { owner } = await newAccount(t);
      await expectApiError(keys.create(owner, ['data:read']), 'invalid_body');
    });

    it('accepts every scope of the contract, aliases included', async () => {
      const { owner } = await newAccount(t);
      const { key, secret } = await keys.create(owner, {
        name: 'alias',
        scopes: ['database:read', 'billing:manage'],
      });
      expect(key.scopes).toEqual(['database:read', 'billing:manage']);
      expect((await read(secret)).status).toBe(200);
    });

    it("puts the key in the owner's default cluster, or in another cluster the owner holds, never in someone else's", async () => {
      const mine = await newAccount(t);
      const theirs = await newAccount(t);
      expect((await keys.create(mine.owner, { name: 'd', scopes: ['data:read'] })).key.clusterId).toBe(
        mine.clusterId,
      );
      expect(
        (await keys.create(mine.owner, { name: 'd', scopes: ['data:read'], clusterId: mine.clusterId })).key
          .clusterId,
      ).toBe(mine.clusterId);
      await expectApiError(
        keys.create(mine.owner, { name: 'd', scopes: ['data:read'], clusterId: theirs.clusterId }),
        // A name in the body is wrong, not the route's target: another user's cluster reads as no cluster.
        'validation_error',
      );
    });

    it('stores only a hash of the secret', async () => {
      const { owner } = await newAccount(t);
      const { key, secret } = await keys.create(owner, { name: 'h', scopes: ['data:read'] });
      const stored = await t.server.storage.keys.findForAuth(key._id);
      expect(stored!.secretHash.equals(hashApiKey(secret))).toBe(true);
      expect(JSON.stringify(stored)).not.toContain(secret.slice(20, 52));
    });
  });

  describe('owners', () => {
    it("lists the owner's keys newest first and no one else's", async () => {
      const a = await newAccount(t);
      const b = await newAccount(t);
      const first = await keys.create(a.owner, { name: 'first', scopes: ['data:read'] });
      const second = await keys.create(a.owner, { name: 'second', scopes: ['data:read'] });
      const listed = (await keys.list(a.owner)).data.map((key) => key._id);
      expect(listed).toEqual([second.key._id, first.key._id, a.keyId]);
      expect((await keys.list(b.owner)).data.map((key) => key._id)).toEqual([b.keyId]);
    });

    it("answers 404 not_found for every operation on another owner's key, and changes nothing", async () => {
      const a = await newAccount(t);
      const b = await newAccount(t);
      for (const call of [
        () => keys.get(b.owner, a.keyId),
        () => keys.pause(b.owner, a.keyId),
        () => keys.resume(b.owner, a.keyId),
        () => keys.rotate(b.owner, a.keyId),
        () => keys.delete(b.owner, a.keyId),
        () => keys.usage(b.owner, a.keyId, {}),
      ]) {
        await expectApiError(call(), 'not_found');
      }
      expect((await read(a.apiKey)).status).toBe(200);
    });
  });

  describe('transitions outside the table', () => {
    it('keeps pause and resume idempotent', async () => {
      const { owner } = await newAccount(t);
      const { key, secret } = await keys.create(owner, { name: 'i', scopes: ['data:read'] });
      expect((await keys.resume(owner, key._id)).status).toBe('active');
      await keys.pause(owner, key._id);
      expect((await keys.pause(owner, key._id)).status).toBe('paused');
      await expectError(await read(secret), 401, 'key_paused');
    });

    it('refuses to rotate a paused key (409 conflict), which stays paused', async () => {
      const { owner } = await newAccount(t);
      const { key, secret } = await keys.create(owner, { name: 'pr', scopes: ['data:read'] });
      await keys.pause(owner, key._id);
      await expectApiError(keys.rotate(owner, key._id), 'conflict');
      await expectError(await read(secret), 401, 'key_paused');
    });

    it('refuses to resume, pause or rotate an expired key (409 conflict); it can still be deleted', async () => {
      const { owner } = await newAccount(t);
      const { key } = await keyService(t, () => Date.now() - 2 * DAY).create(owner, {
        name: 'old',
        scopes: ['data:read'],
        expiresAt: new Date(Date.now() - DAY).toISOString(),
      });
      for (const call of [
        () => keys.resume(owner, key._id),
        () => keys.pause(owner, key._id),
        () => keys.rotate(owner, key._id),
      ])
        await expectApiError(call(), 'conflict');
      expect((await keys.delete(owner, key._id)).deleted).toBe(true);
    });
  });
});
