import { createDataPlatformMocks } from '@dataplatform/mocks';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  DataPlatform,
  PermissionDeniedError,
} from '../src/index.js';

const baseUrl = 'http://localhost:5000';
const mocks = createDataPlatformMocks({ baseUrl });
const server = setupServer(...mocks.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mocks.store.reset());
afterAll(() => server.close());

const ada = { email: 'ada@example.com', password: 'analytical engine', name: 'Ada Lovelace' };

describe('client.auth', () => {
  it('signs up, then signs in and stores the token on the client when asked', async () => {
    const client = new DataPlatform({ baseUrl, maxRetries: 0 });
    const created = await client.auth.signUp(ada);
    expect(created.user).toMatchObject({ email: ada.email, name: ada.name });
    expect(client.token).toBeUndefined();

    const session = await client.auth.signIn(
      { email: ada.email, password: ada.password },
      { storeToken: true },
    );
    expect(client.token).toBe(session.token);
    const me = await client.auth.me();
    expect(me.user).toEqual(created.user);
    expect(await client.auth.profile()).toEqual(created.user);
  });

  it('sends a token given to the constructor as Authorization: Bearer', async () => {
    const { token } = await new DataPlatform({ baseUrl }).auth.signUp(ada);
    const client = new DataPlatform({ baseUrl, token });
    expect((await client.auth.me()).user.email).toBe(ada.email);
    // A session token works on the data routes too.
    expect(await client.data.create('notes', { text: 'hi' })).toMatchObject({ text: 'hi' });
  });

  it('throws typed errors: ConflictError for a taken e-mail, AuthenticationError for wrong credentials', async () => {
    const client = new DataPlatform({ baseUrl, maxRetries: 0 });
    await client.auth.signUp(ada);
    await expect(client.auth.signUp(ada)).rejects.toBeInstanceOf(ConflictError);
    const wrong = await client.auth
      .signIn({ email: ada.email, password: 'wrong!!!' })
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(AuthenticationError);
    expect(wrong).toMatchObject({ status: 401, code: 'invalid_credentials' });
    const weak = await client.auth
      .signUp({ ...ada, email: 'weak@example.com', password: 'password123' })
      .catch((e: unknown) => e);
    expect(weak).toBeInstanceOf(BadRequestError);
    expect(weak).toMatchObject({ code: 'validation_error' });
  });

  it('logout ends the session and drops the stored token; the old token gets session_expired', async () => {
    const client = new DataPlatform({ baseUrl, maxRetries: 0 });
    const { token } = await client.auth.signUp(ada, { storeToken: true });
    expect(await client.auth.logout()).toEqual({ sessionsEnded: 1 });
    expect(client.token).toBeUndefined();
    const error = await new DataPlatform({ baseUrl, token }).auth.me().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: 'session_expired' });
  });

  it('logoutAll ends every session of the user', async () => {
    const first = new DataPlatform({ baseUrl });
    await first.auth.signUp(ada, { storeToken: true });
    const second = new DataPlatform({ baseUrl });
    await second.auth.signIn({ email: ada.email, password: ada.password }, { storeToken: true });
    const stale = second.token!;
    expect(await second.auth.logoutAll()).toEqual({ sessionsEnded: 2 });
    await expect(first.auth.me()).rejects.toMatchObject({ code: 'session_expired' });
    await expect(new DataPlatform({ baseUrl, token: stale }).auth.me()).rejects.toMatchObject({
      code: 'session_expired',
    });
  });

  it('resets a forgotten password with the token from the e-mail', async () => {
    const client = new DataPlatform({ baseUrl });
    await client.auth.signUp(ada);
    expect(await client.auth.forgotPassword(ada.email)).toEqual({ accepted: true });
    const [mail] = mocks.outbox();
    const done = await client.auth.resetPassword({
      token: mail!.resetToken!,
      password: 'a brand new password',
    });
    expect(done).toEqual({ reset: true, sessionsEnded: 1 });
    await expect(client.auth.signIn({ email: ada.email, password: ada.password })).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    const back = await client.auth.signIn({ email: ada.email, password: 'a brand new password' });
    expect(back.user.email).toBe(ada.email);
  });

  it('chooses a plan and answers the billing account', async () => {
    const client = new DataPlatform({ baseUrl });
    await client.auth.signUp(ada, { storeToken: true });
    const billing = await client.auth.choosePlan('team');
    expect(billing).toMatchObject({ plan: 'team', trialActive: true });
  });
});

describe('client.logs and client.settings', () => {
  it('walks the activity log, newest first', async () => {
    const client = new DataPlatform({ baseUrl });
    await client.auth.signUp(ada, { storeToken: true });
    await client.auth.choosePlan('starter');
    const page = await client.logs.activity({ limit: 1 });
    expect(page.data.map((e) => e.action)).toEqual(['plan.selected']);
    const actions: string[] = [];
    for await (const entry of client.logs.activity({ limit: 1 })) actions.push(entry.action);
    expect(actions).toEqual(['plan.selected', 'signup']);
  });

  it('reads and changes the settings with a merge patch', async () => {
    const client = new DataPlatform({ baseUrl });
    await client.auth.signUp(ada, { storeToken: true });
    expect((await client.settings.get()).account.timezone).toBe('UTC');
    const changed = await client.settings.update({
      account: { timezone: 'Europe/Paris' },
      security: { sessionLifetimeHours: 12 },
    });
    expect(changed.account.timezone).toBe('Europe/Paris');
    expect(changed.security.sessionLifetimeHours).toBe(12);
    await expect(client.settings.update({ account: { timezone: 'Mars/Olympus' } })).rejects.toMatchObject({
      code: 'validation_error',
    });
  });

  it('reads and sets the IP allowlist, and the profile is refused from outside it', async () => {
    const client = new DataPlatform({ baseUrl });
    await client.auth.signUp(ada, { storeToken: true });
    expect(await client.settings.ipAllowlist.get()).toEqual({ entries: [], clientIp: '127.0.0.1' });
    expect(await client.settings.ipAllowlist.set(['127.0.0.1', '2001:db8::/32'])).toMatchObject({
      entries: ['127.0.0.1', '2001:db8::/32'],
    });
    const elsewhere = client.withOptions({ defaultHeaders: { 'x-forwarded-for': '198.51.100.1' } });
    await expect(elsewhere.auth.profile()).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(elsewhere.auth.profile()).rejects.toMatchObject({ code: 'ip_blocked' });
    await expect(elsewhere.settings.ipAllowlist.set(['198.51.100.1'])).rejects.toMatchObject({
      code: 'ip_blocked',
    });
  });
});
