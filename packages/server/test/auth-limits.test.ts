import { beforeAll, describe, expect, it } from 'vitest';
import { slowdownMs } from '../src/auth/auth-limits.js';
import { bearer, forEachEngine, signUp, type TestServer } from './helpers.js';

async function expectError(res: Response, status: number, code: string) {
  const body = await res.json();
  expect({ status: res.status, code: body.code }).toEqual({ status, code });
  return body;
}

let addresses = 0;
/** A client address of its own for each test (the server trusts loopback as a proxy here). */
function newAddress(): string {
  addresses++;
  return `198.51.100.${addresses}`;
}

const limits = {
  signinsPerMinute: 5,
  signupsPerHour: 3,
  resetRequestsPerHour: 2,
  lockAfterFailures: 3,
  lockMinutes: 15,
};

forEachEngine(
  (server) => {
    let t: TestServer;
    beforeAll(() => {
      t = server();
    });

    const post = (path: string, ip: string, body: unknown) =>
      t.call('POST', path, { key: null, body, headers: { 'x-forwarded-for': ip } });
    const signIn = (ip: string, email: string, password: string) =>
      post('/api/auth/signin', ip, { email, password });

    describe('per client address', () => {
      it('allows the configured sign-ups an hour, then answers 429 rate_limited with Retry-After', async () => {
        const ip = newAddress();
        for (let i = 0; i < limits.signupsPerHour; i++) {
          const res = await post('/api/auth/signup', ip, {
            email: `limit-${ip}-${i}@example.com`,
            password: 'limit test password',
            name: 'L',
          });
          expect(res.status).toBe(201);
        }
        const refused = await post('/api/auth/signup', ip, {
          email: `limit-${ip}-x@example.com`,
          password: 'limit test password',
          name: 'L',
        });
        await expectError(refused, 429, 'rate_limited');
        const wait = Number(refused.headers.get('retry-after'));
        expect(wait).toBeGreaterThan(60);
        expect(wait).toBeLessThanOrEqual(3600);
        const elsewhere = await post('/api/auth/signup', newAddress(), {
          email: `limit-${ip}-y@example.com`,
          password: 'limit test password',
          name: 'L',
        });
        expect(elsewhere.status).toBe(201);
      });

      it('allows the configured sign-ins a minute, then answers 429', async () => {
        const user = await signUp(t, { headers: { 'x-forwarded-for': newAddress() } });
        const ip = newAddress();
        for (let i = 0; i < limits.signinsPerMinute; i++) {
          expect((await signIn(ip, user.email, user.password)).status).toBe(200);
        }
        const refused = await signIn(ip, user.email, user.password);
        await expectError(refused, 429, 'rate_limited');
        expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
        expect((await signIn(newAddress(), user.email, user.password)).status).toBe(200);
      });

      it('counts password-reset attempts against the sign-in limit', async () => {
        const ip = newAddress();
        for (let i = 0; i < limits.signinsPerMinute; i++) {
          const res = await post('/api/auth/reset-password', ip, {
            token: `guess-${i}`,
            password: 'guessing long password',
          });
          await expectError(res, 400, 'validation_error');
        }
        const refused = await post('/api/auth/reset-password', ip, {
          token: 'guess-x',
          password: 'guessing long password',
        });
        await expectError(refused, 429, 'rate_limited');
      });

      it('allows the configured reset requests an hour, then answers 429', async () => {
        const ip = newAddress();
        for (let i = 0; i < limits.resetRequestsPerHour; i++) {
          expect((await post('/api/auth/forgot-password', ip, { email: 'who@example.com' })).status).toBe(
            202,
          );
        }
        await expectError(
          await post('/api/auth/forgot-password', ip, { email: 'who@example.com' }),
          429,
          'rate_limited',
        );
      });
    });

    describe('failed sign-ins', () => {
      it('lock the (e-mail, address) pair after the configured failures in a row, and notify the user', async () => {
        const user = await signUp(t, { headers: { 'x-forwarded-for': newAddress() } });
        const ip = newAddress();
        for (let i = 0; i < limits.lockAfterFailures; i++) {
          await expectError(await signIn(ip, user.email, 'wrong password!'), 401, 'invalid_credentials');
        }
        // Locked: even the right password is refused from this address…
        const locked = await signIn(ip, user.email, user.password);
        const body = await expectError(locked, 429, 'rate_limited');
        expect(body.error).toMatch(/locked/);
        const wait = Number(locked.headers.get('retry-after'));
        expect(wait).toBeGreaterThan(14 * 60);
        expect(wait).toBeLessThanOrEqual(15 * 60);
        // …but not from another one.
        const other = await signIn(newAddress(), user.email, user.password);
        expect(other.status).toBe(200);

        const { rows } = await t.server.storage.notifications.list(user.user._id, { limit: 10, skip: 0 });
        // The lock, and the sign-in from an address not seen before.
        expect(rows.map((row) => row.kind).sort()).toEqual(['account_locked', 'new_sign_in']);
        expect(rows.find((row) => row.kind === 'account_locked')).toMatchObject({ data: { ip } });
        const log = await t.call('GET', '/api/logs/activity', {
          key: null,
          headers: bearer((await other.json()).token),
        });
        const actions = (await log.json()).data.map((e: { action: string }) => e.action);
        expect(actions.filter((a: string) => a === 'signin.failed')).toHaveLength(limits.lockAfterFailures);
        expect(actions).toContain('signin.locked');
      });

      it('lock an unknown e-mail the same way, so the answers tell nothing about which accounts exist', async () => {
        const ip = newAddress();
        for (let i = 0; i < limits.lockAfterFailures; i++) {
          await expectError(await signIn(ip, 'ghost@example.com', 'whatever pw'), 401, 'invalid_credentials');
        }
        await expectError(await signIn(ip, 'ghost@example.com', 'whatever pw'), 429, 'rate_limited');
      });

      it('count only failures in a row: a success starts over', async () => {
        const user = await signUp(t, { headers: { 'x-forwarded-for': newAddress() } });
        const ip = newAddress();
        const fail = () => signIn(ip, user.email, 'wrong password!');
        for (let i = 0; i < limits.lockAfterFailures - 1; i++) {
          await expectError(await fail(), 401, 'invalid_credentials');
        }
        expect((await signIn(ip, user.email, user.password)).status).toBe(200);
        // Without the reset, the first of these would lock the pair and the second would be 429.
        for (let i = 0; i < limits.lockAfterFailures - 1; i++) {
          await expectError(await fail(), 401, 'invalid_credentials');
        }
      });

      it('slow down: no wait for the first two, then 250 ms doubling up to 2 s', () => {
        expect([1, 2, 3, 4, 5, 6, 10].map(slowdownMs)).toEqual([0, 0, 250, 500, 1000, 2000, 2000]);
      });
    });

    describe('a sign-in from a never-seen address', () => {
      it('is noted in the activity log, once', async () => {
        const user = await signUp(t, { headers: { 'x-forwarded-for': newAddress() } });
        const ip = newAddress();
        const first = await signIn(ip, user.email, user.password);
        await signIn(ip, user.email, user.password);
        const log = await t.call('GET', '/api/logs/activity', {
          key: null,
          headers: bearer((await first.json()).token),
        });
        const entries = (await log.json()).data as { action: string; ip: string }[];
        expect(entries.map((e) => e.action)).toEqual(['signin', 'signin', 'signin.new_address', 'signup']);
        expect(entries[2]!.ip).toBe(ip);
      });
    });
  },
  { config: { trustedProxies: ['127.0.0.1'], authLimits: limits } },
);
