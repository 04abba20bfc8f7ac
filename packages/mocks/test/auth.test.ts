import { describe, expect, it } from 'vitest';
import { useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

function expectError(
  result: { status: number; body: unknown; headers: Headers },
  status: number,
  code: string,
) {
  expect(result.status).toBe(status);
  expect(result.body).toMatchObject({ code, requestId: result.headers.get('x-request-id') });
}

describe('credentials', () => {
  it('answers 401 unauthorized without a key', async () => {
    const result = await call('GET', '/api/v1/data/orders', { key: null });
    expectError(result, 401, 'unauthorized');
    expect(result.body.error).toBe('Missing or invalid credentials');
  });

  it('answers 401 unauthorized for an unknown key', async () => {
    expectError(await call('GET', '/api/v1/data/orders', { key: 'svc_not_a_key' }), 401, 'unauthorized');
  });

  it('accepts the key as Authorization: Bearer svc_…', async () => {
    const result = await call('GET', '/api/v1/data/orders', {
      key: null,
      headers: { Authorization: `Bearer ${mocks.apiKey}` },
    });
    expect(result.status).toBe(200);
  });

  it('treats a bearer value without svc_ as a session token, which the mocks do not know', async () => {
    const result = await call('GET', '/api/v1/data/orders', {
      key: null,
      headers: { Authorization: `Bearer ${mocks.apiKey.slice('svc_'.length)}` },
    });
    expectError(result, 401, 'unauthorized');
  });

  it('answers 401 key_paused for a paused key', async () => {
    const key = mocks.addKey({ scopes: ['data:read'], status: 'paused' });
    const result = await call('GET', '/api/v1/data/orders', { key });
    expectError(result, 401, 'key_paused');
  });

  it('answers 401 key_expired with the documented message for an expired key', async () => {
    const key = mocks.addKey({ scopes: ['data:read'], status: 'expired' });
    const result = await call('GET', '/api/v1/data/orders', { key });
    expectError(result, 401, 'key_expired');
    expect(result.body.error).toBe('API key has expired');
  });

  it('keeps added keys valid across a store reset', async () => {
    const key = mocks.addKey({ scopes: ['data:read'] });
    mocks.store.reset();
    expect((await call('GET', '/api/v1/data/orders', { key })).status).toBe(200);
  });

  it('refuses to add a key with an unknown scope, so a typo cannot pass as a 403 test', () => {
    expect(() => mocks.addKey({ scopes: ['data:reed'] })).toThrow(/Unknown scope data:reed/);
  });
});

describe('scopes', () => {
  it('answers 403 insufficient_scope naming the required scope', async () => {
    const key = mocks.addKey({ scopes: ['data:read'] });
    const result = await call('POST', '/api/v1/data/orders', { key, json: { total: 1 } });
    expectError(result, 403, 'insufficient_scope');
    expect(result.body.error).toBe('Insufficient permissions for operation');
    expect(result.body.details).toEqual({ required: ['data:write'] });
    expect(mocks.store.collection('orders')).toEqual([]);
  });

  it('needs data:read to list and get', async () => {
    const key = mocks.addKey({ scopes: ['data:write'] });
    const [created] = mocks.store.seed('orders', [{ total: 1 }]);
    expectError(await call('GET', '/api/v1/data/orders', { key }), 403, 'insufficient_scope');
    const result = await call('GET', `/api/v1/data/orders/${created!._id}`, { key });
    expectError(result, 403, 'insufficient_scope');
    expect(result.body.details).toEqual({ required: ['data:read'] });
  });

  it('needs data:write to replace, patch and delete', async () => {
    const key = mocks.addKey({ scopes: ['data:read', 'webhooks:manage'] });
    const [created] = mocks.store.seed('orders', [{ total: 1 }]);
    const path = `/api/v1/data/orders/${created!._id}`;
    expectError(await call('PUT', path, { key, json: { total: 2 } }), 403, 'insufficient_scope');
    expectError(await call('PATCH', path, { key, json: { total: 2 } }), 403, 'insufficient_scope');
    expectError(await call('DELETE', path, { key }), 403, 'insufficient_scope');
    expect(mocks.store.collection('orders')).toEqual([created]);
  });

  it('treats database:read and database:write as data:read and data:write', async () => {
    const reader = mocks.addKey({ scopes: ['database:read'] });
    const writer = mocks.addKey({ scopes: ['database:write'] });
    expect((await call('GET', '/api/v1/data/orders', { key: reader })).status).toBe(200);
    expectError(
      await call('POST', '/api/v1/data/orders', { key: reader, json: {} }),
      403,
      'insufficient_scope',
    );
    expect((await call('POST', '/api/v1/data/orders', { key: writer, json: {} })).status).toBe(201);
    expectError(await call('GET', '/api/v1/data/orders', { key: writer }), 403, 'insufficient_scope');
  });
});

describe('order of checks', () => {
  it('authenticates before it validates the collection name or the body', async () => {
    // "imports" is a reserved name without a path of its own (GET /api/v1/data/sql is 405 before any credential).
    expectError(await call('GET', '/api/v1/data/imports', { key: 'svc_unknown' }), 401, 'unauthorized');
    const reader = mocks.addKey({ scopes: ['data:read'] });
    expectError(
      await call('POST', '/api/v1/data/orders', { key: reader, rawBody: '{oops' }),
      403,
      'insufficient_scope',
    );
  });

  it('checks the scope before the idempotency key', async () => {
    const reader = mocks.addKey({ scopes: ['data:read'] });
    const headers = { 'Idempotency-Key': 'auth-order' };
    expect((await call('POST', '/api/v1/data/orders', { json: { n: 1 }, headers })).status).toBe(201);
    const refused = await call('POST', '/api/v1/data/orders', { key: reader, json: { n: 2 }, headers });
    expectError(refused, 403, 'insufficient_scope');
  });
});
