import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  const total = async (collection: string) =>
    (await (await t.call('GET', `/api/v1/data/${collection}`)).json()).total;

  describe('Idempotency-Key', () => {
    it('replays the first answer of a create instead of writing twice', async () => {
      const headers = { 'idempotency-key': 'create-1' };
      const first = await t.call('POST', '/api/v1/data/idem', { body: { a: 1 }, headers });
      const second = await t.call('POST', '/api/v1/data/idem', { body: { a: 1 }, headers });
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(await second.json()).toEqual(await first.json());
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(second.headers.get('location')).toBe(first.headers.get('location'));
      expect(await total('idem')).toBe(1);
    });

    it('answers 409 idempotency_mismatch when the key comes back with another request', async () => {
      const headers = { 'idempotency-key': 'create-2' };
      expect((await t.call('POST', '/api/v1/data/idem', { body: { a: 1 }, headers })).status).toBe(201);
      const other = await t.call('POST', '/api/v1/data/idem', { body: { a: 2 }, headers });
      expect(other.status).toBe(409);
      expect((await other.json()).code).toBe('idempotency_mismatch');
      const elsewhere = await t.call('POST', '/api/v1/data/idem2', { body: { a: 1 }, headers });
      expect(elsewhere.status).toBe(409);
    });

    it('writes once when many requests with one key arrive together', async () => {
      const headers = { 'idempotency-key': 'burst' };
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => t.call('POST', '/api/v1/data/burst', { body: { b: 1 }, headers })),
      );
      expect(answers.every((r) => r.status === 201)).toBe(true);
      const ids = new Set(await Promise.all(answers.map(async (r) => (await r.json())._id)));
      expect(ids.size).toBe(1);
      expect(await total('burst')).toBe(1);
    });

    it('replays a delete with its first answer rather than 404', async () => {
      const doc = await (await t.call('POST', '/api/v1/data/idem', { body: { a: 3 } })).json();
      const headers = { 'idempotency-key': 'delete-1' };
      expect((await t.call('DELETE', `/api/v1/data/idem/${doc._id}`, { headers })).status).toBe(200);
      const again = await t.call('DELETE', `/api/v1/data/idem/${doc._id}`, { headers });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ _id: doc._id, deleted: true });
    });

    it('does not record failed writes, so a corrected retry with the key is not a mismatch', async () => {
      const headers = { 'idempotency-key': 'patch-missing' };
      expect((await t.call('PATCH', '/api/v1/data/idem/missing', { body: { a: 1 }, headers })).status).toBe(
        404,
      );
      expect((await t.call('PATCH', '/api/v1/data/idem/missing', { body: { a: 1 }, headers })).status).toBe(
        404,
      );
    });

    it('keeps keys per cluster', async () => {
      const headers = { 'idempotency-key': 'shared-name' };
      const mine = await t.call('POST', '/api/v1/data/idem', { body: { who: 'dev' }, headers });
      const theirs = await t.call('POST', '/api/v1/data/idem', {
        key: t.other.apiKey,
        body: { who: 'other' },
        headers,
      });
      expect(theirs.status).toBe(201);
      expect((await theirs.json()).who).toBe('other');
      expect((await mine.json()).who).toBe('dev');
    });

    it('refuses an over-long key with 400 validation_error', async () => {
      const res = await t.call('POST', '/api/v1/data/idem', {
        body: { a: 1 },
        headers: { 'idempotency-key': 'k'.repeat(256) },
      });
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe('validation_error');
    });
  });
});
