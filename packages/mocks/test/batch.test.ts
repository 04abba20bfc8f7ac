import { BatchResult } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

const batch = (json: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  call('POST', '/api/v1/data/batch', { json, ...options });

describe('POST /api/v1/data/batch', () => {
  it('runs every kind of operation and answers as the single-document routes would', async () => {
    mocks.store.seed('orders', [{ _id: 'o1', n: 1, tags: { a: 1 } }]);
    const result = await batch({
      operations: [
        { op: 'insert', collection: 'orders', data: { n: 2 } },
        { op: 'insert', collection: 'orders', id: 'o3', data: { n: 3 } },
        { op: 'get', collection: 'orders', id: 'o1' },
        { op: 'update', collection: 'orders', id: 'o1', data: { m: 1 } },
        { op: 'patch', collection: 'orders', id: 'o3', data: { n: null, x: true } },
        { op: 'delete', collection: 'orders', id: 'o1' },
      ],
    });
    expect(result.status).toBe(200);
    expect(BatchResult.safeParse(result.body).success).toBe(true);
    const { results } = result.body;
    expect(results.map((r: { status: number }) => r.status)).toEqual([201, 201, 200, 200, 200, 200]);
    expect(results[1].data).toMatchObject({ _id: 'o3', n: 3 });
    expect(results[2].data).toMatchObject({ _id: 'o1', n: 1, tags: { a: 1 } });
    expect(Object.keys(results[3].data)).toEqual(['_id', 'm', '_createdAt', '_updatedAt']);
    expect(results[4].data).toMatchObject({ _id: 'o3', x: true });
    expect(results[4].data).not.toHaveProperty('n');
    expect(results[5].data).toEqual({ _id: 'o1', deleted: true });
    expect(mocks.store.collection('orders').map((d) => d._id)).toEqual([results[0].data._id, 'o3'].sort());
  });

  it('lets each operation stand on its own without a transaction', async () => {
    mocks.store.seed('orders', [{ _id: 'taken' }]);
    const result = await batch({
      operations: [
        { op: 'insert', collection: 'orders', data: { _id: 'taken' } },
        { op: 'get', collection: 'orders', id: 'missing' },
        { op: 'insert', collection: 'orders', data: { _secret: 1 } },
        { op: 'insert', collection: 'sql', data: {} },
        { op: 'insert', collection: 'orders', data: { _id: 'new' } },
      ],
    });
    const codes = result.body.results.map((r: { status: number; error?: { code: string } }) => [
      r.status,
      r.error?.code,
    ]);
    expect(codes).toEqual([
      [409, 'conflict'],
      [404, 'not_found'],
      [400, 'invalid_body'],
      [400, 'reserved_collection'],
      [201, undefined],
    ]);
    expect(mocks.store.collection('orders')).toHaveLength(2);
  });

  it('keeps nothing of a transaction that fails, and answers 409 transaction_aborted naming the operation', async () => {
    mocks.store.seed('orders', [{ _id: 'o1', n: 1 }]);
    const result = await batch({
      transaction: true,
      operations: [
        { op: 'insert', collection: 'orders', data: { _id: 'o2' } },
        { op: 'patch', collection: 'orders', id: 'o1', data: { n: 2 } },
        { op: 'delete', collection: 'orders', id: 'o1' },
        { op: 'get', collection: 'orders', id: 'o1' },
      ],
    });
    expect(result.status).toBe(409);
    expect(result.body).toMatchObject({
      code: 'transaction_aborted',
      details: { index: 3, status: 404, code: 'not_found' },
    });
    expect(mocks.store.collection('orders')).toEqual([expect.objectContaining({ _id: 'o1', n: 1 })]);
  });

  it('lets reads in a transaction see its earlier writes', async () => {
    const result = await batch({
      transaction: true,
      operations: [
        { op: 'insert', collection: 'orders', id: 'o1', data: { n: 1 } },
        { op: 'patch', collection: 'orders', id: 'o1', data: { n: 2 } },
        { op: 'get', collection: 'orders', id: 'o1' },
      ],
    });
    expect(result.status).toBe(200);
    expect(result.body.transaction).toBe(true);
    expect(result.body.results[2].data).toMatchObject({ n: 2 });
  });

  it.each([
    ['an empty list', { operations: [] }, undefined],
    ['1001 operations', { operations: Array(1001).fill({ op: 'get', collection: 'c', id: 'a' }) }, 1000],
    ['an unknown op', { operations: [{ op: 'upsert', collection: 'c' }] }, 0],
    [
      'a missing id',
      {
        operations: [
          { op: 'get', collection: 'c', id: 'a' },
          { op: 'get', collection: 'c' },
        ],
      },
      1,
    ],
    ['data that is not an object', { operations: [{ op: 'insert', collection: 'c', data: 'x' }] }, 0],
  ])('answers %s with 400 invalid_batch', async (_, json, index) => {
    const result = await batch(json);
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid_batch');
    expect(result.body.details?.index).toBe(index);
  });

  it('checks every operation’s scope before running any', async () => {
    const key = mocks.addKey({ scopes: ['data:read'] });
    const result = await batch(
      {
        operations: [
          { op: 'insert', collection: 'orders', data: {} },
          { op: 'get', collection: 'orders', id: 'a' },
        ],
      },
      { key },
    );
    expect(result.status).toBe(403);
    expect(result.body.details).toEqual({ index: 0, required: ['data:write'] });
    expect(mocks.store.collection('orders')).toEqual([]);
  });

  it('replays a batch sent again with its Idempotency-Key', async () => {
    const json = { operations: [{ op: 'insert', collection: 'orders', data: { n: 1 } }] };
    const headers = { 'Idempotency-Key': 'b1' };
    const first = await batch(json, { headers });
    const again = await batch(json, { headers });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(mocks.store.collection('orders')).toHaveLength(1);
  });

  it('answers a request without a body with invalid_batch, as the server does', async () => {
    const result = await call('POST', '/api/v1/data/batch', { rawBody: '' });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid_batch');
  });

  it('wins over /api/v1/data/{collection}: "batch" is never a collection', async () => {
    const result = await batch({ n: 1 });
    expect(result.body.code).toBe('invalid_batch');
    expect(mocks.store.collection('batch')).toEqual([]);
  });
});
