import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

const RECEIPT_KEYS = ['_createdAt', '_id', '_updatedAt'];

forEachEngine((server) => {
  let t: TestServer;
  let writer: string;
  beforeAll(async () => {
    t = server();
    writer = (await t.addKey({ scopes: ['data:write'] })).apiKey;
  });

  async function seed(collection: string): Promise<{ _id: string; secret: string; _updatedAt: string }> {
    return (
      await t.call('POST', `/api/v1/data/${collection}`, { body: { secret: 'only readers see this' } })
    ).json();
  }

  /** Deliveries recorded for a subscription: one per event its collection's writes produced. */
  async function deliveries(webhookId: string): Promise<number> {
    const res = await t.call('GET', `/api/v1/data/webhooks/${webhookId}/deliveries?limit=100`);
    return (await res.json()).total;
  }

  describe('a key that may write but not read', () => {
    it('gets only _id, _createdAt and _updatedAt back from POST, PUT and PATCH', async () => {
      const created = await t.call('POST', '/api/v1/data/wo1', { key: writer, body: { secret: 's', n: 1 } });
      expect(created.status).toBe(201);
      const receipt = await created.json();
      expect(Object.keys(receipt).sort()).toEqual(RECEIPT_KEYS);
      const path = `/api/v1/data/wo1/${receipt._id}`;
      for (const [method, body] of [
        ['PUT', { secret: 't' }],
        ['PATCH', { n: 2 }],
      ] as const) {
        const res = await t.call(method, path, { key: writer, body });
        expect(res.status).toBe(200);
        expect(Object.keys(await res.json()).sort()).toEqual(RECEIPT_KEYS);
      }
      expect(await (await t.call('GET', path)).json()).toMatchObject({ secret: 't', n: 2 });
    });

    it('cannot read a document through PATCH {} or a replayed idempotent write', async () => {
      const doc = await seed('wo2');
      const empty = await t.call('PATCH', `/api/v1/data/wo2/${doc._id}`, { key: writer, body: {} });
      expect(empty.status).toBe(200);
      expect(await empty.json()).toEqual({
        _id: doc._id,
        _createdAt: expect.any(String),
        _updatedAt: doc._updatedAt,
      });
      const headers = { 'idempotency-key': 'wo2-replay' };
      const first = await t.call('PATCH', `/api/v1/data/wo2/${doc._id}`, { body: { n: 1 }, headers });
      expect(await first.json()).toMatchObject({ secret: 'only readers see this' });
      const replayed = await t.call('PATCH', `/api/v1/data/wo2/${doc._id}`, {
        key: writer,
        body: { n: 1 },
        headers,
      });
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(Object.keys(await replayed.json()).sort()).toEqual(RECEIPT_KEYS);
    });

    it('gets receipts for the documents of a batch, and deletes as they are', async () => {
      const doc = await seed('wo3');
      const res = await t.call('POST', '/api/v1/data/batch', {
        key: writer,
        body: {
          operations: [
            { op: 'insert', collection: 'wo3', data: { secret: 'x' } },
            { op: 'patch', collection: 'wo3', id: doc._id, data: {} },
            { op: 'update', collection: 'wo3', id: doc._id, data: { secret: 'y' } },
            { op: 'delete', collection: 'wo3', id: doc._id },
            { op: 'delete', collection: 'wo3', id: 'missing' },
          ],
        },
      });
      const { results } = await res.json();
      expect(results.map((r: { status: number }) => r.status)).toEqual([201, 200, 200, 200, 404]);
      for (const result of results.slice(0, 3)) expect(Object.keys(result.data).sort()).toEqual(RECEIPT_KEYS);
      expect(results[3].data).toEqual({ _id: doc._id, deleted: true });
    });

    it('still needs data:read to list and get (403 insufficient_scope)', async () => {
      const doc = await seed('wo4');
      for (const path of ['/api/v1/data/wo4', `/api/v1/data/wo4/${doc._id}`]) {
        const res = await t.call('GET', path, { key: writer });
        expect(res.status).toBe(403);
        expect((await res.json()).code).toBe('insufficient_scope');
      }
    });
  });

  describe('an empty patch', () => {
    it('changes nothing and fires nothing, for any caller; a real patch fires one event', async () => {
      const hook = await (
        await t.call('POST', '/api/v1/data/webhooks', {
          body: { url: 'http://127.0.0.1:9/receiver', events: ['document.updated'], collection: 'ep' },
        })
      ).json();
      const doc = await seed('ep');
      const path = `/api/v1/data/ep/${doc._id}`;
      const empty = await t.call('PATCH', path, { body: {} });
      expect(empty.status).toBe(200);
      expect(await empty.json()).toMatchObject({
        secret: 'only readers see this',
        _updatedAt: doc._updatedAt,
      });
      const batch = await t.call('POST', '/api/v1/data/batch', {
        body: { operations: [{ op: 'patch', collection: 'ep', id: doc._id, data: {} }] },
      });
      expect((await batch.json()).results[0]).toMatchObject({
        status: 200,
        data: { _updatedAt: doc._updatedAt },
      });
      expect(await deliveries(hook._id)).toBe(0);
      const real = await t.call('PATCH', path, { body: { n: 1 } });
      expect((await real.json())._updatedAt).not.toBe(doc._updatedAt);
      expect(await deliveries(hook._id)).toBe(1);
    });

    it('answers 404 for a document that does not exist', async () => {
      const res = await t.call('PATCH', '/api/v1/data/ep/missing', { body: {} });
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('not_found');
    });
  });
});
