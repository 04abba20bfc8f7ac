import type { DeletedResponse, StoredDocument } from '@dataplatform/contract';
import { createDataPlatformMocks } from '@dataplatform/mocks';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  type BatchOperation,
  type BatchResult,
  ConflictError,
  DataPlatform,
  PermissionDeniedError,
} from '../src/index.js';

interface Order {
  item: string;
  qty: number;
}

const mocks = createDataPlatformMocks();
const server = setupServer(...mocks.handlers);
const client = new DataPlatform({ apiKey: mocks.apiKey });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mocks.store.reset());
afterAll(() => server.close());

describe('client.data.batch', () => {
  it('runs operations in order and types each result by its operation', async () => {
    mocks.store.seed('orders', [{ _id: 'o1', item: 'pen', qty: 1 }]);
    const { results, transaction } = await client.data.batch([
      { op: 'insert', collection: 'orders', data: { item: 'ink', qty: 2 } },
      { op: 'patch', collection: 'orders', id: 'o1', data: { qty: 3 } },
      { op: 'get', collection: 'orders', id: 'missing' },
      { op: 'delete', collection: 'orders', id: 'o1' },
    ]);
    expectTypeOf(results[0]).toEqualTypeOf<BatchResult<StoredDocument<{ item: string; qty: number }>>>();
    expectTypeOf(results[3]).toEqualTypeOf<BatchResult<DeletedResponse>>();
    expect(transaction).toBe(false);
    expect(results.map((r) => r.status)).toEqual([201, 200, 404, 200]);
    expect(results[0].data).toMatchObject({ item: 'ink', qty: 2, _id: expect.any(String) });
    expect(results[1].data).toMatchObject({ _id: 'o1', qty: 3 });
    expect(results[2].error).toMatchObject({ code: 'not_found' });
    expect(results[3].data).toEqual({ _id: 'o1', deleted: true });
    expect(mocks.store.collection('orders')).toHaveLength(1);
  });

  it('sends { operations, transaction } with an Idempotency-Key', async () => {
    const seen: { body: unknown; key: string | null }[] = [];
    server.events.on('request:start', async ({ request }) => {
      if (request.url.endsWith('/batch'))
        seen.push({ body: await request.clone().json(), key: request.headers.get('idempotency-key') });
    });
    const operations: BatchOperation<Order>[] = [
      { op: 'insert', collection: 'orders', data: { item: 'a', qty: 1 } },
    ];
    await client.data.batch(operations, { transaction: true });
    server.events.removeAllListeners();
    expect(seen).toEqual([{ body: { operations, transaction: true }, key: expect.any(String) }]);
  });

  it('rejects an aborted transaction with ConflictError transaction_aborted and keeps nothing', async () => {
    const call = client.data.batch(
      [
        { op: 'insert', collection: 'orders', data: { item: 'a' } },
        { op: 'update', collection: 'orders', id: 'missing', data: { item: 'b' } },
      ],
      { transaction: true },
    );
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      status: 409,
      code: 'transaction_aborted',
      details: { index: 1, status: 404 },
    });
    expect(mocks.store.collection('orders')).toEqual([]);
  });

  it('rejects a batch the key may not run with PermissionDeniedError before anything runs', async () => {
    const reader = new DataPlatform({ apiKey: mocks.addKey({ scopes: ['data:read'] }) });
    const call = reader.data.batch([{ op: 'insert', collection: 'orders', data: {} }]);
    await expect(call).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(mocks.store.collection('orders')).toEqual([]);
  });

  it('refuses operations of the wrong shape at compile time', () => {
    // @ts-expect-error a delete needs an id
    client.data.batch([{ op: 'delete', collection: 'orders' }]).catch(() => {});
    // @ts-expect-error unknown operation kind
    client.data.batch([{ op: 'upsert', collection: 'orders', data: {} }]).catch(() => {});
  });
});
