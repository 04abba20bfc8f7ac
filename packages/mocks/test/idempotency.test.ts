import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

const withKey = (key: string) => ({ 'Idempotency-Key': key });

afterEach(() => {
  vi.useRealTimers();
});

describe('Idempotency-Key', () => {
  it('replays the first answer of a POST, with Idempotent-Replayed, and stores one document', async () => {
    const first = await call('POST', '/api/v1/data/orders', { json: { total: 1 }, headers: withKey('k1') });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const replay = await call('POST', '/api/v1/data/orders', { json: { total: 1 }, headers: withKey('k1') });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('location')).toBe(first.headers.get('location'));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(mocks.store.collection('orders')).toHaveLength(1);
  });

  it('replays the answer as it was, even after the document changed', async () => {
    mocks.store.seed('orders', [{ _id: 'o1', n: 0 }]);
    const first = await call('PATCH', '/api/v1/data/orders/o1', { json: { n: 1 }, headers: withKey('k2') });
    await call('PATCH', '/api/v1/data/orders/o1', { json: { n: 2 } });
    const replay = await call('PATCH', '/api/v1/data/orders/o1', { json: { n: 1 }, headers: withKey('k2') });
    expect(replay.body).toEqual(first.body);
    expect(replay.body.n).toBe(1);
    expect(mocks.store.collection('orders')[0]!.n).toBe(2);
  });

  it('replays PUT and DELETE answers without repeating the write', async () => {
    mocks.store.seed('orders', [{ _id: 'o1', n: 0 }]);
    const put = await call('PUT', '/api/v1/data/orders/o1', { json: { n: 5 }, headers: withKey('put') });
    const putReplay = await call('PUT', '/api/v1/data/orders/o1', {
      json: { n: 5 },
      headers: withKey('put'),
    });
    expect(putReplay.body).toEqual(put.body);
    expect(putReplay.headers.get('idempotent-replayed')).toBe('true');

    const del = await call('DELETE', '/api/v1/data/orders/o1', { headers: withKey('del') });
    const delReplay = await call('DELETE', '/api/v1/data/orders/o1', { headers: withKey('del') });
    expect(del.status).toBe(200);
    expect(delReplay.status).toBe(200);
    expect(delReplay.body).toEqual({ _id: 'o1', deleted: true });
    expect(delReplay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers 409 idempotency_mismatch for the same key with another body, path or method', async () => {
    mocks.store.seed('orders', [{ _id: 'o1' }, { _id: 'o2' }]);
    await call('PATCH', '/api/v1/data/orders/o1', { json: { n: 1 }, headers: withKey('k3') });
    for (const [method, path, json] of [
      ['PATCH', '/api/v1/data/orders/o1', { n: 2 }],
      ['PATCH', '/api/v1/data/orders/o2', { n: 1 }],
      ['PUT', '/api/v1/data/orders/o1', { n: 1 }],
    ] as const) {
      const result = await call(method, path, { json, headers: withKey('k3') });
      expect(result.status, `${method} ${path}`).toBe(409);
      expect(result.body.code).toBe('idempotency_mismatch');
    }
    expect(mocks.store.collection('orders').map((doc) => doc.n)).toEqual([1, undefined]);
  });

  it('does not record a failed write: the retry runs again, as on the server', async () => {
    const first = await call('DELETE', '/api/v1/data/orders/later', { headers: withKey('k4') });
    expect(first.status).toBe(404);
    mocks.store.seed('orders', [{ _id: 'later' }]);
    const retry = await call('DELETE', '/api/v1/data/orders/later', { headers: withKey('k4') });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(mocks.store.collection('orders')).toHaveLength(0);
  });

  it('does not record a malformed request, so the corrected request may reuse the key', async () => {
    const bad = await call('POST', '/api/v1/data/orders', { rawBody: '{"n":', headers: withKey('k5') });
    expect(bad.body.code).toBe('invalid_json');
    const good = await call('POST', '/api/v1/data/orders', { json: { n: 1 }, headers: withKey('k5') });
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets a key after 24 hours', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    await call('POST', '/api/v1/data/orders', { json: { n: 1 }, headers: withKey('k6') });
    vi.setSystemTime(new Date('2030-01-01T23:59:59Z'));
    const replay = await call('POST', '/api/v1/data/orders', { json: { n: 1 }, headers: withKey('k6') });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    vi.setSystemTime(new Date('2030-01-02T00:00:00Z'));
    const fresh = await call('POST', '/api/v1/data/orders', { json: { n: 1 }, headers: withKey('k6') });
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect(mocks.store.collection('orders')).toHaveLength(2);
  });

  it('forgets every key on store.reset()', async () => {
    await call('POST', '/api/v1/data/orders', { json: { n: 1 }, headers: withKey('k7') });
    mocks.store.reset();
    const again = await call('POST', '/api/v1/data/orders', { json: { n: 2 }, headers: withKey('k7') });
    expect(again.status).toBe(201);
  });

  it('shares keys across API keys of the cluster', async () => {
    const other = mocks.addKey({ scopes: ['data:read', 'data:write'] });
    const first = await call('POST', '/api/v1/data/orders', { json: { n: 1 }, headers: withKey('k8') });
    const replay = await call('POST', '/api/v1/data/orders', {
      key: other,
      json: { n: 1 },
      headers: withKey('k8'),
    });
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('replays only the receipt to a key that may write but not read', async () => {
    const writer = mocks.addKey({ scopes: ['data:write'] });
    const first = await call('POST', '/api/v1/data/orders', { json: { n: 1 }, headers: withKey('k10') });
    const replay = await call('POST', '/api/v1/data/orders', {
      key: writer,
      json: { n: 1 },
      headers: withKey('k10'),
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const { _id, _createdAt, _updatedAt } = first.body;
    expect(replay.body).toEqual({ _id, _createdAt, _updatedAt });
  });

  it('is ignored on reads and when absent', async () => {
    await call('POST', '/api/v1/data/orders', { json: { n: 1 } });
    await call('POST', '/api/v1/data/orders', { json: { n: 1 } });
    expect(mocks.store.collection('orders')).toHaveLength(2);
    const read = await call('GET', '/api/v1/data/orders', { headers: withKey('k9') });
    expect(read.headers.get('idempotent-replayed')).toBeNull();
    const write = await call('POST', '/api/v1/data/orders', { json: { n: 3 }, headers: withKey('k9') });
    expect(write.status).toBe(201);
  });

  it('refuses an empty Idempotency-Key and one past 255 characters with 400, as the server does', async () => {
    for (const key of ['', 'k'.repeat(256)]) {
      const result = await call('POST', '/api/v1/data/orders', { json: { n: 1 }, headers: withKey(key) });
      expect([result.status, result.body.code, result.body.details]).toEqual([
        400,
        'validation_error',
        { in: 'header', field: 'Idempotency-Key' },
      ]);
    }
    expect(mocks.store.collection('orders')).toHaveLength(0);
  });
});
