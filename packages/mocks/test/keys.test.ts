import { describe, expect, it } from 'vitest';
import { useMockApi } from './harness.js';

const { call } = useMockApi();

/** A fresh user of the mocks and a way to call the key routes with their session token. */
async function user() {
  const email = `keys-${Math.random().toString(36).slice(2)}@example.com`;
  const signedUp = await call('POST', '/api/auth/signup', {
    key: null,
    json: { email, password: 'a long enough password', name: 'K' },
  });
  const headers = { Authorization: `Bearer ${signedUp.body.token}` };
  return (method: string, path: string, json?: unknown, extra: Record<string, string> = {}) =>
    call(method, path, { key: null, json, headers: { ...headers, ...extra } });
}

describe('API keys in the mocks', () => {
  it('creates keys that authenticate at once, and pause, resume, rotate and delete take effect at once', async () => {
    const as = await user();
    const created = await as('POST', '/api/keys', { name: 'ci', scopes: ['data:read'] });
    expect(created.status).toBe(201);
    const { key, secret } = created.body;
    expect(key).toMatchObject({
      name: 'ci',
      status: 'active',
      prefix: `svc_${key._id}`,
      scopes: ['data:read'],
    });
    const read = () => call('GET', '/api/v1/data/orders', { key: secret });
    expect((await read()).status).toBe(200);
    expect((await call('POST', '/api/v1/data/orders', { key: secret, json: { a: 1 } })).status).toBe(403);

    expect((await as('POST', `/api/keys/${key._id}/pause`)).body.status).toBe('paused');
    expect((await read()).body.code).toBe('key_paused');
    expect((await as('POST', `/api/keys/${key._id}/rotate`)).status).toBe(409);
    expect((await as('POST', `/api/keys/${key._id}/resume`)).body.status).toBe('active');
    expect((await read()).status).toBe(200);

    const rotated = await as('POST', `/api/keys/${key._id}/rotate`);
    expect(rotated.body.key.lastRotatedAt).not.toBeNull();
    expect((await read()).status).toBe(401);
    expect((await call('GET', '/api/v1/data/orders', { key: rotated.body.secret })).status).toBe(200);

    expect((await as('DELETE', `/api/keys/${key._id}`)).body).toEqual({ _id: key._id, deleted: true });
    expect((await call('GET', '/api/v1/data/orders', { key: rotated.body.secret })).status).toBe(401);
    expect((await as('GET', `/api/keys/${key._id}`)).status).toBe(404);
  });

  it('records usage, denied and success, newest first, filtered and paged', async () => {
    const as = await user();
    const { key, secret } = (await as('POST', '/api/keys', { name: 'u', scopes: ['data:read'] })).body;
    await call('GET', '/api/v1/data/orders', { key: secret });
    await call('POST', '/api/v1/data/orders', { key: secret, json: { a: 1 } });
    const usage = await as('GET', `/api/keys/${key._id}/usage`);
    expect(usage.body.total).toBe(2);
    expect(usage.body.data.map((e: { outcome: string; status: number }) => [e.outcome, e.status])).toEqual([
      ['denied', 403],
      ['success', 200],
    ]);
    expect((await as('GET', `/api/keys/${key._id}/usage?outcome=success`)).body.total).toBe(1);
    expect((await as('GET', `/api/keys/${key._id}/usage?limit=1&skip=1`)).body.data[0].outcome).toBe(
      'success',
    );
    expect((await as('GET', `/api/keys/${key._id}`)).body.lastUsedAt).toBe(usage.body.data[0].timestamp);
  });

  it('keeps users apart (404), refuses API keys (401) and honours the IP allowlist (403)', async () => {
    const as = await user();
    const stranger = await user();
    const { key } = (await as('POST', '/api/keys', { name: 'mine', scopes: ['data:read'] })).body;
    expect((await stranger('GET', `/api/keys/${key._id}`)).status).toBe(404);
    expect((await stranger('GET', '/api/keys')).body.data).toEqual([]);
    expect((await call('GET', '/api/keys')).status).toBe(401);
    await as('PUT', '/api/settings/ip-allowlist', { entries: ['127.0.0.1'] });
    const blocked = await as('GET', '/api/keys', undefined, { 'X-Forwarded-For': '198.51.100.1' });
    expect(blocked).toMatchObject({ status: 403, body: { code: 'ip_blocked' } });
  });

  it("gives robots keys within the robot's scopes, listed apart, ended with the robot", async () => {
    const as = await user();
    const robot = (await as('POST', '/api/robots', { name: 'bot', scopes: ['data:read'] })).body;
    expect(
      (await as('POST', `/api/robots/${robot._id}/keys`, { name: 'k', scopes: ['data:write'] })).status,
    ).toBe(403);
    const { key, secret } = (
      await as('POST', `/api/robots/${robot._id}/keys`, { name: 'k', scopes: ['data:read'] })
    ).body;
    expect(
      (await as('GET', `/api/robots/${robot._id}/keys`)).body.data.map((k: { _id: string }) => k._id),
    ).toEqual([key._id]);
    expect((await as('GET', '/api/keys')).body.data).toEqual([]);
    expect((await call('GET', '/api/v1/data/orders', { key: secret })).status).toBe(200);
    await as('DELETE', `/api/robots/${robot._id}`);
    expect((await call('GET', '/api/v1/data/orders', { key: secret })).status).toBe(401);
    expect((await as('GET', `/api/robots/${robot._id}`)).status).toBe(404);
  });

  it('counts a scope alias as its scope, and refuses a past expiresAt as the server does', async () => {
    const as = await user();
    const robot = (await as('POST', '/api/robots', { name: 'bot', scopes: ['data:read'] })).body;
    const alias = await as('POST', `/api/robots/${robot._id}/keys`, { name: 'k', scopes: ['database:read'] });
    expect(alias.status).toBe(201);
    const refused = await as('POST', `/api/robots/${robot._id}/keys`, { name: 'k', scopes: ['data:write'] });
    expect(refused.body).toMatchObject({
      code: 'forbidden',
      error: 'Cannot grant scopes the owner does not hold: data:write',
      details: { scopes: ['data:write'] },
    });
    const past = await as('POST', '/api/keys', {
      name: 'late',
      scopes: ['data:read'],
      expiresAt: '2020-01-01T00:00:00.000Z',
    });
    expect([past.status, past.body.details]).toEqual([400, { in: 'body', field: 'expiresAt' }]);
  });
});
