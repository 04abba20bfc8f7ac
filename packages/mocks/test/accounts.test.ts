import { describe, expect, it } from 'vitest';
import { useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function signUp(email = 'ada@example.com', password = 'analytical engine') {
  const result = await call('POST', '/api/auth/signup', {
    key: null,
    json: { email, password, name: 'Ada' },
  });
  expect(result.status).toBe(201);
  return result.body as { token: string; user: { _id: string; email: string } };
}

describe('accounts in the mocks', () => {
  it('signs up (free plan, trial) and in, and refuses a taken e-mail or a wrong password like the server', async () => {
    const { user } = await signUp('Ada@Example.com');
    expect(user.email).toBe('ada@example.com');
    const taken = await call('POST', '/api/auth/signup', {
      key: null,
      json: { email: 'ADA@example.com', password: 'analytical engine', name: 'Ada' },
    });
    expect(taken.body.code).toBe('conflict');
    const wrong = await call('POST', '/api/auth/signin', {
      key: null,
      json: { email: 'ada@example.com', password: 'nope nope' },
    });
    const unknown = await call('POST', '/api/auth/signin', {
      key: null,
      json: { email: 'bob@example.com', password: 'nope nope' },
    });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'invalid_credentials']);
    expect(unknown.body.error).toBe(wrong.body.error);
    const common = await call('POST', '/api/auth/signup', {
      key: null,
      json: { email: 'c@example.com', password: 'password123', name: 'C' },
    });
    expect(common.body).toMatchObject({
      code: 'validation_error',
      details: { field: 'password', reason: 'common' },
    });
  });

  it('ends a session at logout, and every session at logout-all', async () => {
    const { token } = await signUp();
    const second = (
      await call('POST', '/api/auth/signin', {
        key: null,
        json: { email: 'ada@example.com', password: 'analytical engine' },
      })
    ).body.token as string;
    expect((await call('POST', '/api/auth/logout', { key: null, headers: bearer(token) })).body).toEqual({
      sessionsEnded: 1,
    });
    const ended = await call('GET', '/api/auth/me', { key: null, headers: bearer(token) });
    expect([ended.status, ended.body.code]).toEqual([401, 'session_expired']);
    expect((await call('GET', '/api/auth/me', { key: null, headers: bearer(second) })).status).toBe(200);
    await call('POST', '/api/auth/logout-all', { key: null, headers: bearer(second) });
    expect((await call('GET', '/api/auth/me', { key: null, headers: bearer(second) })).body.code).toBe(
      'session_expired',
    );
  });

  it('lets a session token use the data routes with every scope', async () => {
    const { token } = await signUp();
    const created = await call('POST', '/api/v1/data/notes', {
      key: null,
      headers: bearer(token),
      json: { a: 1 },
    });
    expect(created.status).toBe(201);
    const unknown = await call('GET', '/api/v1/data/notes', { key: null, headers: bearer('not-a-session') });
    expect(unknown.body.code).toBe('unauthorized');
  });

  it('resets a password with the token from the outbox, once', async () => {
    const { token } = await signUp();
    const accepted = await call('POST', '/api/auth/forgot-password', {
      key: null,
      json: { email: 'ada@example.com' },
    });
    expect([accepted.status, accepted.body]).toEqual([202, { accepted: true }]);
    await call('POST', '/api/auth/forgot-password', { key: null, json: { email: 'nobody@example.com' } });
    const mails = mocks.outbox();
    expect(mails.map((m) => m.to)).toEqual(['ada@example.com']);
    const reset = { token: mails[0]!.resetToken, password: 'a new long password' };
    const done = await call('POST', '/api/auth/reset-password', { key: null, json: reset });
    expect(done.body).toEqual({ reset: true, sessionsEnded: 1 });
    expect((await call('GET', '/api/auth/me', { key: null, headers: bearer(token) })).body.code).toBe(
      'session_expired',
    );
    const again = await call('POST', '/api/auth/reset-password', { key: null, json: reset });
    expect(again.body).toMatchObject({ code: 'validation_error', details: { field: 'token' } });
  });

  it('keeps the IP allowlist, with X-Forwarded-For as the client address', async () => {
    const { token } = await signUp();
    const from = (ip: string) => ({ ...bearer(token), 'X-Forwarded-For': ip });
    const lockout = await call('PUT', '/api/settings/ip-allowlist', {
      key: null,
      headers: from('198.51.100.1'),
      json: { entries: ['203.0.113.0/24'] },
    });
    expect(lockout.body).toMatchObject({ code: 'validation_error', details: { clientIp: '198.51.100.1' } });
    const set = await call('PUT', '/api/settings/ip-allowlist', {
      key: null,
      headers: from('203.0.113.5'),
      json: { entries: ['203.0.113.0/24'] },
    });
    expect(set.body).toEqual({ entries: ['203.0.113.0/24'], clientIp: '203.0.113.5' });
    expect((await call('GET', '/api/auth/profile', { key: null, headers: from('203.0.113.9') })).status).toBe(
      200,
    );
    const blocked = await call('GET', '/api/auth/profile', { key: null, headers: from('198.51.100.1') });
    expect([blocked.status, blocked.body.code]).toEqual([403, 'ip_blocked']);
    // The allowlist of the ipGuarded routes comes right after the session, before the body, as on the server.
    for (const [method, path] of [
      ['PUT', '/api/settings/ip-allowlist'],
      ['POST', '/api/keys'],
    ] as const) {
      const refused = await call(method, path, {
        key: null,
        headers: from('198.51.100.1'),
        json: { unknownField: true },
      });
      expect([refused.status, refused.body.code], path).toEqual([403, 'ip_blocked']);
    }
    const readable = await call('GET', '/api/settings/ip-allowlist', {
      key: null,
      headers: from('198.51.100.1'),
    });
    expect(readable.status).toBe(200);
    const log = await call('GET', '/api/logs/activity?limit=1', { key: null, headers: from('203.0.113.9') });
    expect(log.body).toMatchObject({
      total: 2,
      data: [{ action: 'ip_allowlist.updated', ip: '203.0.113.5' }],
    });
  });
});
