import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, forEachEngine, type SignedUp, signUp, startTestServer, type TestServer } from './helpers.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';

async function expectError(res: Response, status: number, code: string) {
  const body = await res.json();
  expect({ status: res.status, code: body.code }).toEqual({ status, code });
  return body;
}

const sink: SmtpSink = await startSmtpSink();
afterAll(() => sink.close());

/** The token of the reset link in a message. */
function linkToken(text: string): string {
  const link = /^http:\/\/app\.test\/reset-password\?token=(\S+)$/m.exec(text);
  expect(link, text).not.toBeNull();
  return decodeURIComponent(link![1]!);
}

forEachEngine(
  (server) => {
    let t: TestServer;
    beforeAll(() => {
      t = server();
    });

    const forgot = (email: string) =>
      t.call('POST', '/api/auth/forgot-password', { key: null, body: { email } });
    const reset = (token: string, password: string) =>
      t.call('POST', '/api/auth/reset-password', { key: null, body: { token, password } });
    const signIn = (user: SignedUp, password: string) =>
      t.call('POST', '/api/auth/signin', { key: null, body: { email: user.email, password } });

    it('mails a single-use link that sets a new password and ends every older session', async () => {
      const user = await signUp(t);
      const res = await forgot(user.email.toUpperCase());
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ accepted: true });

      const mail = await sink.next(user.email);
      expect(mail.subject).toBe('Reset your dataplatform password');
      expect(mail.raw).toMatch(/^From: dataplatform <no-reply@localhost>/m);
      const token = linkToken(mail.text);
      expect(mail.text).toContain(`POST /api/auth/reset-password: ${token}`);

      const done = await reset(token, 'a brand new password');
      expect(done.status).toBe(200);
      expect(await done.json()).toEqual({ reset: true, sessionsEnded: 1 });
      await expectError(
        await t.call('GET', '/api/auth/me', { key: null, headers: bearer(user.token) }),
        401,
        'session_expired',
      );
      await expectError(await signIn(user, user.password), 401, 'invalid_credentials');
      expect((await signIn(user, 'a brand new password')).status).toBe(200);

      const again = await expectError(await reset(token, 'yet another password'), 400, 'validation_error');
      expect(again.details).toMatchObject({ field: 'token' });

      const signin = await signIn(user, 'a brand new password');
      const log = await t.call('GET', '/api/logs/activity', {
        key: null,
        headers: bearer((await signin.json()).token),
      });
      const actions = (await log.json()).data.map((e: { action: string }) => e.action);
      expect(actions.slice(2, 5)).toEqual(['signin.failed', 'password.reset', 'password.reset_requested']);
    });

    it('answers an unknown address exactly alike and sends nothing', async () => {
      const unknown = `nobody-${Date.now()}@example.com`;
      const res = await forgot(unknown);
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ accepted: true });
      // A known address asked afterwards gets its mail; by then the unknown one would have had its own.
      const user = await signUp(t);
      await forgot(user.email);
      await sink.next(user.email);
      expect(sink.messages.filter((m) => m.to.includes(unknown))).toEqual([]);
    });

    it('refuses an unknown or expired token with 400 validation_error on the field token', async () => {
      const user = await signUp(t);
      const token = 'expired-token-for-the-test';
      await t.server.storage.sessions.createReset({
        tokenHash: createHash('sha256').update(token).digest('base64url'),
        userId: user.user._id,
        createdAt: new Date(Date.now() - 31 * 60_000).toISOString(),
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      });
      const expired = await expectError(
        await reset(token, 'a perfectly fine password'),
        400,
        'validation_error',
      );
      expect(expired.details.field).toBe('token');
      await expectError(await reset('never-issued', 'a perfectly fine password'), 400, 'validation_error');
      expect((await signIn(user, user.password)).status).toBe(200);
    });

    it('refuses a common or short new password without using up the token', async () => {
      const user = await signUp(t);
      await forgot(user.email);
      const token = linkToken((await sink.next(user.email)).text);
      const common = await expectError(await reset(token, 'qwertyuiop'), 400, 'validation_error');
      expect(common.details).toMatchObject({ field: 'password', reason: 'common' });
      await expectError(await reset(token, 'short'), 400, 'validation_error');
      expect((await reset(token, 'finally a good one')).status).toBe(200);
    });

    it('clears the IP allowlist, so a user whose address changed gets back in', async () => {
      const user = await signUp(t);
      await t.call('PUT', '/api/settings/ip-allowlist', {
        key: null,
        headers: bearer(user.token),
        body: { entries: ['127.0.0.1'] },
      });
      await forgot(user.email);
      await reset(linkToken((await sink.next(user.email)).text), 'after the move password');
      expect(await t.server.storage.accounts.ipAllowlist(user.user._id)).toEqual([]);
    });

    it.each([
      ['forgot-password', { email: 'not an address' }],
      ['reset-password', { token: 'x' }],
      ['reset-password', { token: '', password: 'long enough password' }],
    ])('%s answers 400 validation_error for %j', async (route, body) => {
      await expectError(
        await t.call('POST', `/api/auth/${route}`, { key: null, body }),
        400,
        'validation_error',
      );
    });
  },
  {
    config: {
      smtpUrl: sink.url,
      appUrl: 'http://app.test',
    },
  },
);

describe('without SMTP settings', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  }, 60_000);
  afterAll(() => t?.stop());

  it('writes each message to <data dir>/outbox.jsonl, readable by its owner only', async () => {
    const user = await signUp(t);
    await t.call('POST', '/api/auth/forgot-password', { key: null, body: { email: user.email } });
    const file = join(t.dataDir, 'outbox.jsonl');
    const deadline = Date.now() + 10_000;
    let lines: string[] = [];
    while (lines.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      try {
        lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
      } catch {}
    }
    const message = JSON.parse(lines.at(-1)!);
    expect(message).toMatchObject({ to: user.email, subject: 'Reset your dataplatform password' });
    expect(message.text).toMatch(new RegExp(`${t.url}/reset-password\\?token=`));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
