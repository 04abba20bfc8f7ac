import { AuthSession, BillingAccount, CurrentSession, User } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';

async function expectError(res: Response, status: number, code: string) {
  const body = await res.json();
  expect({ status: res.status, code: body.code }).toEqual({ status, code });
  expect(body.requestId).toBe(res.headers.get('x-request-id'));
  return body;
}

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  const asUser = (token: string, method: string, path: string, body?: unknown) =>
    t.call(method, path, { key: null, headers: bearer(token), body });

  describe('sign-up', () => {
    it('creates the user with a session, a default cluster and a free plan with a 14-day trial', async () => {
      const res = await t.call('POST', '/api/auth/signup', {
        key: null,
        body: { email: 'Ada@Example.com', password: 'analytical engine 1843', name: 'Ada Lovelace' },
      });
      expect(res.status).toBe(201);
      const body = AuthSession.parse(await res.json());
      expect(body.user).toMatchObject({ email: 'ada@example.com', name: 'Ada Lovelace' });
      expect(body.user).not.toHaveProperty('passwordHash');
      expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());

      const plan = await asUser(body.token, 'POST', '/api/auth/plan-choice', { plan: 'free' });
      const billing = BillingAccount.parse(await plan.json());
      expect(billing).toMatchObject({ plan: 'free', trialActive: true, credits: 0 });
      const trialDays = (Date.parse(billing.trialExpiresAt!) - Date.now()) / 86_400_000;
      expect(trialDays).toBeGreaterThan(13.9);
      expect(trialDays).toBeLessThanOrEqual(14);

      // The default cluster: documents written with the session token land in it.
      const created = await asUser(body.token, 'POST', '/api/v1/data/notes', { text: 'hello' });
      expect(created.status).toBe(201);
    });

    it('answers 409 conflict for an e-mail that is taken, whatever its case', async () => {
      const { email } = await signUp(t);
      const res = await t.call('POST', '/api/auth/signup', {
        key: null,
        body: { email: email.toUpperCase(), password: 'another long password', name: 'Twin' },
      });
      await expectError(res, 409, 'conflict');
    });

    it.each([
      ['a short password', { password: 'short' }, 'password'],
      ['a password over 128 characters', { password: 'x'.repeat(129) }, 'password'],
      ['a common password', { password: 'password123' }, 'password'],
      ['a common password in other case', { password: 'IloveYou12' }, 'password'],
      ['an invalid e-mail', { email: 'not-an-address' }, 'email'],
      ['an empty name', { name: ' ' }, 'name'],
      // The document's maxLength counts the name as sent, before the whitespace around it is dropped.
      ['a name over 100 characters as sent, whitespace included', { name: `\t${'n'.repeat(100)}` }, 'name'],
    ])('answers 400 validation_error for %s', async (_case, override, field) => {
      const res = await t.call('POST', '/api/auth/signup', {
        key: null,
        body: { email: 'valid@example.com', password: 'fine long password', name: 'N', ...override },
      });
      const body = await expectError(res, 400, 'validation_error');
      expect(body.details.field).toBe(field);
    });

    it.each([
      ['POST', '/api/auth/signup'],
      ['POST', '/api/auth/signin'],
      ['POST', '/api/auth/forgot-password'],
      ['POST', '/api/auth/reset-password'],
      ['POST', '/api/auth/plan-choice'],
      ['PUT', '/api/settings/ip-allowlist'],
    ])(
      '%s %s answers 400 invalid_body for a non-object body and invalid_json for malformed JSON',
      async (method, path) => {
        const { token } = await signUp(t);
        const headers = bearer(token);
        await expectError(
          await t.call(method, path, { key: null, headers, body: '[1]' }),
          400,
          'invalid_body',
        );
        await expectError(
          await t.call(method, path, { key: null, headers, body: '{"a":' }),
          400,
          'invalid_json',
        );
      },
    );
  });

  describe('sign-in', () => {
    let user: SignedUp;
    beforeAll(async () => {
      user = await signUp(t);
    });

    it('answers a session token for the right password, with any case of e-mail', async () => {
      const res = await t.call('POST', '/api/auth/signin', {
        key: null,
        body: { email: user.email.toUpperCase(), password: user.password },
      });
      expect(res.status).toBe(200);
      const body = AuthSession.parse(await res.json());
      expect(body.user).toEqual(user.user);
      expect(body.token).not.toBe(user.token);
    });

    it('answers unknown e-mail and wrong password alike: 401 invalid_credentials', async () => {
      const wrong = await t.call('POST', '/api/auth/signin', {
        key: null,
        body: { email: user.email, password: 'not the password' },
      });
      const unknown = await t.call('POST', '/api/auth/signin', {
        key: null,
        body: { email: 'nobody@example.com', password: 'not the password' },
      });
      const a = await expectError(wrong, 401, 'invalid_credentials');
      const b = await expectError(unknown, 401, 'invalid_credentials');
      expect(a.error).toBe(b.error);
      expect(Object.keys(a)).toEqual(Object.keys(b));
    });

    it('answers 400 validation_error for a missing password', async () => {
      const res = await t.call('POST', '/api/auth/signin', { key: null, body: { email: user.email } });
      await expectError(res, 400, 'validation_error');
    });
  });

  describe('the session', () => {
    it('me answers the user and the session; profile answers the user', async () => {
      const user = await signUp(t);
      const me = await asUser(user.token, 'GET', '/api/auth/me');
      expect(me.status).toBe(200);
      const body = CurrentSession.parse(await me.json());
      expect(body.user).toEqual(user.user);
      expect(body.session.id).toMatch(/^ses_/);
      // A new account starts on the free plan with a trial (as the plan-choice answer shows it).
      expect(body.billing).toMatchObject({ plan: 'free', status: 'active', trialActive: true });
      const profile = await asUser(user.token, 'GET', '/api/auth/profile');
      expect(profile.status).toBe(200);
      expect(User.parse(await profile.json())).toEqual(user.user);
    });

    it.each([
      ['/api/auth/me', 'GET'],
      ['/api/auth/profile', 'GET'],
      ['/api/auth/logout', 'POST'],
      ['/api/auth/logout-all', 'POST'],
      ['/api/auth/plan-choice', 'POST'],
      ['/api/logs/activity', 'GET'],
      ['/api/settings/ip-allowlist', 'GET'],
      ['/api/settings/ip-allowlist', 'PUT'],
    ])('%s refuses no credential and API keys with 401 unauthorized', async (path, method) => {
      await expectError(await t.call(method, path, { key: null }), 401, 'unauthorized');
      const viaHeader = await expectError(await t.call(method, path), 401, 'unauthorized');
      expect(viaHeader.error).toMatch(/API keys are refused/);
      await expectError(
        await t.call(method, path, { key: null, headers: bearer(t.devKey) }),
        401,
        'unauthorized',
      );
    });

    it('logout ends this session at once and leaves the others', async () => {
      const user = await signUp(t);
      const other = await t.call('POST', '/api/auth/signin', {
        key: null,
        body: { email: user.email, password: user.password },
      });
      const second = (await other.json()).token as string;
      const res = await asUser(user.token, 'POST', '/api/auth/logout');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ sessionsEnded: 1 });
      await expectError(await asUser(user.token, 'GET', '/api/auth/me'), 401, 'session_expired');
      await expectError(await asUser(user.token, 'GET', '/api/v1/data/notes'), 401, 'session_expired');
      expect((await asUser(second, 'GET', '/api/auth/me')).status).toBe(200);
    });

    it('logout-all ends every session of the user and no one else’s', async () => {
      const user = await signUp(t);
      const bystander = await signUp(t);
      const tokens = [user.token];
      for (let i = 0; i < 2; i++) {
        const res = await t.call('POST', '/api/auth/signin', {
          key: null,
          body: { email: user.email, password: user.password },
        });
        tokens.push((await res.json()).token);
      }
      const res = await asUser(tokens[1]!, 'POST', '/api/auth/logout-all');
      expect(await res.json()).toEqual({ sessionsEnded: 3 });
      for (const token of tokens) {
        await expectError(await asUser(token, 'GET', '/api/auth/me'), 401, 'session_expired');
      }
      expect((await asUser(bystander.token, 'GET', '/api/auth/me')).status).toBe(200);
    });
  });

  describe('plan choice', () => {
    it.each(['starter', 'team', 'payg', 'free'])('switches the billing account to %s', async (plan) => {
      const user = await signUp(t);
      const res = await asUser(user.token, 'POST', '/api/auth/plan-choice', { plan });
      expect(res.status).toBe(200);
      expect(BillingAccount.parse(await res.json())).toMatchObject({ plan, trialActive: true });
    });

    it('refuses enterprise, which only an operator sets, with 400 validation_error', async () => {
      const user = await signUp(t);
      const res = await asUser(user.token, 'POST', '/api/auth/plan-choice', { plan: 'enterprise' });
      const body = await expectError(res, 400, 'validation_error');
      expect(body.details.field).toBe('plan');
    });

    it('moves the user’s API rate limit to the plan’s tier', async () => {
      const user = await signUp(t);
      const before = await asUser(user.token, 'GET', '/api/v1/data/notes');
      expect(before.headers.get('ratelimit-limit')).toBe('500'); // the trial's starter tier
      await asUser(user.token, 'POST', '/api/auth/plan-choice', { plan: 'team' });
      const after = await asUser(user.token, 'GET', '/api/v1/data/notes');
      expect(after.headers.get('ratelimit-limit')).toBe('2000');
    });
  });

  describe('the activity log', () => {
    it('lists the user’s own entries, newest first, paged, with address and user agent', async () => {
      const agent = { 'user-agent': 'activity-test/1.0' };
      const user = await signUp(t, { headers: agent });
      await t.call('POST', '/api/auth/signin', {
        key: null,
        body: { email: user.email, password: 'wrong password here' },
        headers: agent,
      });
      const signin = await t.call('POST', '/api/auth/signin', {
        key: null,
        body: { email: user.email, password: user.password },
        headers: agent,
      });
      const token = (await signin.json()).token as string;
      await t.call('POST', '/api/auth/plan-choice', {
        key: null,
        headers: { ...bearer(token), ...agent },
        body: { plan: 'starter' },
      });
      await t.call('POST', '/api/auth/logout', { key: null, headers: { ...bearer(user.token), ...agent } });
      const res = await asUser(token, 'GET', '/api/logs/activity');
      expect(res.status).toBe(200);
      const page = await res.json();
      expect(page.data.map((e: { action: string }) => e.action)).toEqual([
        'logout',
        'plan.selected',
        'signin',
        'signin.failed',
        'signup',
      ]);
      expect(page).toMatchObject({ total: 5, limit: 50, skip: 0 });
      for (const entry of page.data) {
        expect(entry).toMatchObject({ ip: '127.0.0.1', userAgent: 'activity-test/1.0' });
        expect(Date.parse(entry.createdAt)).not.toBeNaN();
      }
      expect(page.data[1].details).toEqual({ plan: 'starter' });

      const second = await (await asUser(token, 'GET', '/api/logs/activity?limit=2&skip=2')).json();
      expect(second.data.map((e: { action: string }) => e.action)).toEqual(['signin', 'signin.failed']);
      expect(second.total).toBe(5);

      const stranger = await signUp(t);
      const theirs = await (await asUser(stranger.token, 'GET', '/api/logs/activity')).json();
      expect(theirs.data.map((e: { action: string }) => e.action)).toEqual(['signup']);
    });

    it('answers 400 validation_error for a limit out of range', async () => {
      const user = await signUp(t);
      await expectError(
        await asUser(user.token, 'GET', '/api/logs/activity?limit=0'),
        400,
        'validation_error',
      );
      await expectError(
        await asUser(user.token, 'GET', '/api/logs/activity?skip=-1'),
        400,
        'validation_error',
      );
    });
  });
});
