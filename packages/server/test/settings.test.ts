import { Settings } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';
import { expectError } from './key-helpers.js';

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  const as = (who: SignedUp, method: string, path: string, body?: unknown) =>
    t.call(method, path, { key: null, headers: bearer(who.token), body });
  const settingsOf = async (who: SignedUp) => {
    const res = await as(who, 'GET', '/api/settings');
    expect(res.status, await res.clone().text()).toBe(200);
    return Settings.parse(await res.json());
  };
  const patch = async (who: SignedUp, body: unknown) => {
    const res = await as(who, 'PATCH', '/api/settings', body);
    expect(res.status, await res.clone().text()).toBe(200);
    return Settings.parse(await res.json());
  };

  describe('GET /api/settings', () => {
    it("answers the defaults: the user's name, UTC, no allowlist, the server's session lifetime", async () => {
      const who = await signUp(t, { name: 'Ada' });
      expect(await settingsOf(who)).toEqual({
        account: { name: 'Ada', timezone: 'UTC' },
        security: { ipAllowlist: [], sessionLifetimeHours: 7 * 24 },
        data: { defaultClusterId: null },
      });
    });

    it('refuses an API key', async () => {
      await expectError(await t.call('GET', '/api/settings'), 401, 'unauthorized');
    });
  });

  describe('PATCH /api/settings', () => {
    it('changes only what the merge patch names, and null restores a default', async () => {
      const who = await signUp(t, { name: 'Ada' });
      const changed = await patch(who, {
        account: { timezone: 'Europe/Paris' },
        security: { sessionLifetimeHours: 12 },
      });
      expect(changed.account).toEqual({ name: 'Ada', timezone: 'Europe/Paris' });
      expect(changed.security.sessionLifetimeHours).toBe(12);
      const renamed = await patch(who, { account: { name: '  Ada L.  ' } });
      expect(renamed.account).toEqual({ name: 'Ada L.', timezone: 'Europe/Paris' });
      const profile = await as(who, 'GET', '/api/auth/profile');
      expect(((await profile.json()) as { name: string }).name).toBe('Ada L.');
      const reset = await patch(who, {
        account: { timezone: null },
        security: { sessionLifetimeHours: null },
      });
      expect(reset.account.timezone).toBe('UTC');
      expect(reset.security.sessionLifetimeHours).toBe(7 * 24);
    });

    it('refuses unknown time zones, lifetimes out of range, unknown fields and blank names, changing nothing', async () => {
      const who = await signUp(t, { name: 'Ada' });
      for (const body of [
        { account: { timezone: 'Mars/Olympus' } },
        { security: { sessionLifetimeHours: 0 } },
        { security: { sessionLifetimeHours: 2161 } },
        { security: { sessionLifetimeHours: 1.5 } },
        { account: { name: '   ' } },
        { account: { colour: 'blue' } },
        { theme: 'dark' },
        { account: { timezone: 'Europe/Paris' }, security: { ipAllowlist: ['not an address'] } },
      ]) {
        await expectError(await as(who, 'PATCH', '/api/settings', body), 400, 'validation_error');
      }
      expect((await settingsOf(who)).account).toEqual({ name: 'Ada', timezone: 'UTC' });
    });

    it('refuses an allowlist that leaves out the address of the change, and keeps one that includes it', async () => {
      const who = await signUp(t);
      const refused = await expectError(
        await as(who, 'PATCH', '/api/settings', { security: { ipAllowlist: ['203.0.113.0/24'] } }),
        400,
        'validation_error',
      );
      expect(refused.details).toMatchObject({ field: 'security.ipAllowlist', clientIp: '127.0.0.1' });
      const kept = await patch(who, { security: { ipAllowlist: ['127.0.0.1', '203.0.113.0/24'] } });
      expect(kept.security.ipAllowlist).toEqual(['127.0.0.1', '203.0.113.0/24']);
      const list = await as(who, 'GET', '/api/settings/ip-allowlist');
      expect(((await list.json()) as { entries: string[] }).entries).toEqual(['127.0.0.1', '203.0.113.0/24']);
      await patch(who, { security: { ipAllowlist: [] } });
    });

    it('takes a default cluster the user is a member of, and data routes use it without X-Cluster-Id', async () => {
      const who = await signUp(t);
      expect((await as(who, 'PUT', '/api/billing/plan', { plan: 'team' })).status).toBe(200);
      const made = await as(who, 'POST', '/api/clusters', { name: 'second' });
      expect(made.status, await made.clone().text()).toBe(201);
      const second = (await made.json()) as { _id: string };
      await expectError(
        await as(who, 'PATCH', '/api/settings', { data: { defaultClusterId: 'cl_nobody' } }),
        400,
        'validation_error',
      );
      // Wait until the new cluster runs before writing to it.
      for (let i = 0; i < 100; i++) {
        const got = await as(who, 'GET', `/api/clusters/${second._id}`);
        if (((await got.json()) as { status: string }).status === 'running') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await patch(who, { data: { defaultClusterId: second._id } })).data.defaultClusterId).toBe(
        second._id,
      );
      const written = await as(who, 'POST', '/api/v1/data/notes', { text: 'in the second cluster' });
      expect(written.status, await written.clone().text()).toBe(201);
      const there = await t.call('GET', '/api/v1/data/notes', {
        key: null,
        headers: { ...bearer(who.token), 'x-cluster-id': second._id },
      });
      expect(((await there.json()) as { total: number }).total).toBe(1);
    });

    it('applies a new session lifetime to sessions started afterwards', async () => {
      const who = await signUp(t);
      await patch(who, { security: { sessionLifetimeHours: 2 } });
      const res = await t.call('POST', '/api/auth/signin', {
        key: null,
        body: { email: who.email, password: who.password },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const { expiresAt } = (await res.json()) as { expiresAt: string };
      const hours = (Date.parse(expiresAt) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(1.9);
      expect(hours).toBeLessThanOrEqual(2);
      // The session it was changed from keeps its own lifetime.
      const me = await as(who, 'GET', '/api/auth/me');
      const { session } = (await me.json()) as { session: { expiresAt: string } };
      expect((Date.parse(session.expiresAt) - Date.now()) / 3_600_000).toBeGreaterThan(24);
    });
  });
});
