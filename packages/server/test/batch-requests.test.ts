import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

const get = { op: 'get', collection: 'inv', id: 'a' };
const insert = (i: number) => ({ op: 'insert', collection: 'inv', data: { i } });

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  const batch = (body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
    t.call('POST', '/api/v1/data/batch', { body, ...options });
  const total = async (collection: string, key?: string) =>
    (await (await t.call('GET', `/api/v1/data/${collection}`, { key })).json()).total;

  describe('invalid_batch', () => {
    it.each([
      ['an array', [insert(0)], undefined],
      ['a string', '"operations"', undefined],
      ['no operations', {}, undefined],
      ['an empty list', { operations: [] }, undefined],
      ['1001 operations', { operations: Array.from({ length: 1001 }, (_, i) => insert(i)) }, 1000],
      ['an unknown op', { operations: [insert(0), { op: 'upsert', collection: 'inv', data: {} }] }, 1],
      ['a missing id', { operations: [insert(0), insert(1), { op: 'delete', collection: 'inv' }] }, 2],
      ['data that is not an object', { operations: [{ op: 'insert', collection: 'inv', data: [1] }] }, 0],
      ['a missing data', { operations: [insert(0), { op: 'update', collection: 'inv', id: 'a' }] }, 1],
      ['data on a get', { operations: [{ ...get, data: {} }] }, 0],
      ['an operation that is not an object', { operations: [insert(0), null] }, 1],
      ['a transaction flag that is not a boolean', { operations: [insert(0)], transaction: 1 }, undefined],
    ])('refuses %s with 400 invalid_batch naming the operation, and runs nothing', async (_, body, index) => {
      const res = await batch(typeof body === 'string' ? body : body);
      expect(res.status).toBe(400);
      const error = await res.json();
      expect(error.code).toBe('invalid_batch');
      expect(error.details?.index).toBe(index);
      expect(await total('inv')).toBe(0);
    });

    it('answers malformed JSON with 400 invalid_json', async () => {
      const res = await batch('{"operations": [', { headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe('invalid_json');
    });
  });

  describe('size', () => {
    it('takes 1000 ordinary documents in one request, well over the 1 MiB limit of other routes', async () => {
      const text = 'x'.repeat(2000);
      const operations = Array.from({ length: 1000 }, (_, i) => ({
        op: 'insert',
        collection: 'big',
        data: { i, text },
      }));
      const res = await batch({ transaction: true, operations });
      expect(res.status).toBe(200);
      expect((await res.json()).results).toHaveLength(1000);
      expect(await total('big')).toBe(1000);
    });

    it('refuses a body over 16 MiB with 413 payload_too_large', async () => {
      const res = await batch({
        operations: [{ op: 'insert', collection: 'huge', data: { s: 'x'.repeat(17 << 20) } }],
      });
      expect(res.status).toBe(413);
      expect((await res.json()).code).toBe('payload_too_large');
    });
  });

  describe('scopes, checked per operation before anything runs', () => {
    it('refuses a read-only key an insert with 403 insufficient_scope and writes nothing', async () => {
      const { apiKey } = await t.addKey({ scopes: ['data:read'] });
      const res = await batch({ operations: [get, insert(1)] }, { key: apiKey });
      expect(res.status).toBe(403);
      const error = await res.json();
      expect(error).toMatchObject({
        code: 'insufficient_scope',
        details: { index: 1, required: ['data:write'] },
      });
      expect(error.error).toMatch(/^Insufficient permissions for operation/);
      expect(await total('inv')).toBe(0);
    });

    it('lets a read-only key run a batch of gets, and a write-only key no get', async () => {
      const reader = await t.addKey({ scopes: ['data:read'] });
      expect((await batch({ operations: [get, get] }, { key: reader.apiKey })).status).toBe(200);
      const writer = await t.addKey({ scopes: ['data:write'] });
      const res = await batch({ operations: [insert(1), get] }, { key: writer.apiKey });
      expect(res.status).toBe(403);
      expect((await res.json()).details).toEqual({ index: 1, required: ['data:read'] });
      expect(await total('inv')).toBe(0);
    });

    it('accepts the database:read and database:write aliases', async () => {
      const { apiKey } = await t.addKey({ scopes: ['database:read', 'database:write'] });
      const res = await batch(
        { operations: [{ op: 'insert', collection: 'alias', data: {} }, get] },
        { key: apiKey },
      );
      expect(res.status).toBe(200);
    });

    it('still refuses a missing key with 401 before reading the body', async () => {
      const res = await t.call('POST', '/api/v1/data/batch', { key: null, body: { operations: [get] } });
      expect(res.status).toBe(401);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer of a batch instead of running it twice', async () => {
      const headers = { 'idempotency-key': 'batch-1' };
      const body = { operations: [{ op: 'insert', collection: 'idem', data: { n: 1 } }] };
      const first = await batch(body, { headers });
      const second = await batch(body, { headers });
      expect(second.status).toBe(200);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await second.json()).toEqual(await first.json());
      expect(await total('idem')).toBe(1);
      const other = await batch({ operations: [get] }, { headers });
      expect(other.status).toBe(409);
      expect((await other.json()).code).toBe('idempotency_mismatch');
    });

    it('records nothing for an aborted transaction, so a corrected retry with the key runs', async () => {
      const headers = { 'idempotency-key': 'batch-2' };
      const failing = { transaction: true, operations: [insert(1), { ...get, collection: 'idem2' }] };
      expect((await batch(failing, { headers })).status).toBe(409);
      const fixed = { transaction: true, operations: [{ op: 'insert', collection: 'idem2', data: {} }] };
      const res = await batch(fixed, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
      expect(await total('inv')).toBe(0);
    });
  });

  describe('tenants', () => {
    it('keeps every operation inside the caller’s cluster', async () => {
      await t.call('POST', '/api/v1/data/shared', { body: { _id: 'doc', owner: 'dev' } });
      const key = t.other.apiKey;
      const list = (
        await (
          await batch(
            {
              operations: [
                { op: 'get', collection: 'shared', id: 'doc' },
                { op: 'patch', collection: 'shared', id: 'doc', data: { owner: 'other' } },
                { op: 'delete', collection: 'shared', id: 'doc' },
                { op: 'insert', collection: 'shared', data: { _id: 'doc', owner: 'other' } },
              ],
            },
            { key },
          )
        ).json()
      ).results;
      expect(list.map((r: { status: number }) => r.status)).toEqual([404, 404, 404, 201]);
      const mine = await (await t.call('GET', '/api/v1/data/shared/doc')).json();
      expect(mine.owner).toBe('dev');
      expect(await total('shared')).toBe(1);
      expect(await total('shared', key)).toBe(1);
    });
  });
});
