import { IpAllowlist } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, forEachEngine, type SignedUp, signUp, startTestServer, type TestServer } from './helpers.js';

async function expectError(res: Response, status: number, code: string) {
  const body = await res.json();
  expect({ status: res.status, code: body.code }).toEqual({ status, code });
  return body;
}

/** Requests as they would come through a trusted proxy for a client at `ip`. */
function from(ip: string): Record<string, string> {
  return { 'x-forwarded-for': ip };
}

forEachEngine(
  (server) => {
    let t: TestServer;
    beforeAll(() => {
      t = server();
    });

    const as = (user: SignedUp, ip: string, method: string, path: string, body?: unknown) =>
      t.call(method, path, { key: null, headers: { ...bearer(user.token), ...from(ip) }, body });
    const setList = (user: SignedUp, ip: string, entries: string[]) =>
      as(user, ip, 'PUT', '/api/settings/ip-allowlist', { entries });

    it('starts empty: every address reaches the profile', async () => {
      const user = await signUp(t);
      const res = await as(user, '198.51.100.7', 'GET', '/api/settings/ip-allowlist');
      expect(IpAllowlist.parse(await res.json())).toEqual({ entries: [], clientIp: '198.51.100.7' });
      expect((await as(user, '198.51.100.7', 'GET', '/api/auth/profile')).status).toBe(200);
    });

    it('with IPv4 addresses and CIDR ranges, lets only those reach the profile', async () => {
      const user = await signUp(t);
      const set = await setList(user, '203.0.113.10', ['203.0.113.0/24', '192.0.2.5']);
      expect(set.status).toBe(200);
      expect(await set.json()).toEqual({
        entries: ['203.0.113.0/24', '192.0.2.5'],
        clientIp: '203.0.113.10',
      });
      expect((await as(user, '203.0.113.200', 'GET', '/api/auth/profile')).status).toBe(200);
      expect((await as(user, '192.0.2.5', 'GET', '/api/auth/profile')).status).toBe(200);
      const blocked = await expectError(
        await as(user, '192.0.2.6', 'GET', '/api/auth/profile'),
        403,
        'ip_blocked',
      );
      expect(blocked.details).toEqual({ ip: '192.0.2.6' });
      await expectError(await as(user, '198.51.100.1', 'GET', '/api/auth/profile'), 403, 'ip_blocked');
      // Other routes are not behind the allowlist.
      expect((await as(user, '198.51.100.1', 'GET', '/api/auth/me')).status).toBe(200);
    });

    it('with IPv6 ranges, and IPv4-mapped IPv6 clients matching IPv4 entries', async () => {
      const user = await signUp(t);
      expect((await setList(user, '2001:db8:1::5', ['2001:db8:1::/48', '203.0.113.0/24'])).status).toBe(200);
      expect((await as(user, '2001:db8:1:ffff::1', 'GET', '/api/auth/profile')).status).toBe(200);
      await expectError(await as(user, '2001:db8:2::1', 'GET', '/api/auth/profile'), 403, 'ip_blocked');
      expect((await as(user, '::ffff:203.0.113.9', 'GET', '/api/auth/profile')).status).toBe(200);
      await expectError(await as(user, '::ffff:198.51.100.9', 'GET', '/api/auth/profile'), 403, 'ip_blocked');
    });

    it('applies to changing the list itself, but anyone signed in may read it and see their address', async () => {
      const user = await signUp(t);
      await setList(user, '203.0.113.10', ['203.0.113.10']);
      await expectError(await setList(user, '198.51.100.1', []), 403, 'ip_blocked');
      const read = await as(user, '198.51.100.1', 'GET', '/api/settings/ip-allowlist');
      expect(await read.json()).toEqual({ entries: ['203.0.113.10'], clientIp: '198.51.100.1' });
      // From an allowed address, an empty list lifts the restriction.
      expect((await setList(user, '203.0.113.10', [])).status).toBe(200);
      expect((await as(user, '198.51.100.1', 'GET', '/api/auth/profile')).status).toBe(200);
    });

    it('refuses a list that leaves out the address of the request: nobody locks themselves out by mistake', async () => {
      const user = await signUp(t);
      const res = await setList(user, '198.51.100.1', ['203.0.113.0/24']);
      const body = await expectError(res, 400, 'validation_error');
      expect(body.details).toMatchObject({ field: 'entries', clientIp: '198.51.100.1' });
      expect(body.error).toMatch(/198\.51\.100\.1/);
      const read = await as(user, '198.51.100.1', 'GET', '/api/settings/ip-allowlist');
      expect((await read.json()).entries).toEqual([]);
    });

    it.each([
      ['a host name', ['example.com']],
      ['a prefix that is too long', ['10.0.0.0/33']],
      ['an IPv6 prefix that is too long', ['2001:db8::/129']],
      ['more than 100 entries', Array.from({ length: 101 }, (_, i) => `10.0.${i}.1`)],
    ])('answers 400 validation_error for %s', async (_case, entries) => {
      const user = await signUp(t);
      await expectError(await setList(user, '10.0.0.1', entries), 400, 'validation_error');
    });

    it('writes each change to the activity log', async () => {
      const user = await signUp(t);
      await setList(user, '203.0.113.10', ['203.0.113.10']);
      const log = await (await as(user, '203.0.113.10', 'GET', '/api/logs/activity')).json();
      expect(log.data[0]).toMatchObject({
        action: 'ip_allowlist.updated',
        ip: '203.0.113.10',
        details: { entries: ['203.0.113.10'] },
      });
    });
  },
  { config: { trustedProxies: ['127.0.0.1/32', '::1'] } },
);

describe('X-Forwarded-For without a trusted proxy', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  }, 60_000);
  afterAll(() => t?.stop());

  it('is ignored: the address is the one of the connection', async () => {
    const user = await signUp(t);
    const res = await t.call('GET', '/api/settings/ip-allowlist', {
      key: null,
      headers: { ...bearer(user.token), ...from('203.0.113.10') },
    });
    expect((await res.json()).clientIp).toBe('127.0.0.1');
    await t.call('PUT', '/api/settings/ip-allowlist', {
      key: null,
      headers: bearer(user.token),
      body: { entries: ['127.0.0.1'] },
    });
    // A forged header cannot claim an address outside the list either: the connection's address decides.
    const profile = await t.call('GET', '/api/auth/profile', {
      key: null,
      headers: { ...bearer(user.token), ...from('198.51.100.1') },
    });
    expect(profile.status).toBe(200);
  });
});
