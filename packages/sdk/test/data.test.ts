import { createDataPlatformMocks } from '@dataplatform/mocks';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  DataPlatform,
  NotFoundError,
  Page,
  PermissionDeniedError,
  PreconditionFailedError,
} from '../src/index.js';

interface Order {
  item: string;
  qty: number;
  shipping?: { city: string; express?: boolean };
}

// No `fetch` option anywhere in this file: the default client must be visible to MSW.
const mocks = createDataPlatformMocks({ baseUrl: 'http://localhost:5000' });
const server = setupServer(...mocks.handlers);
const client = new DataPlatform({ apiKey: mocks.apiKey, baseUrl: 'http://localhost:5000' });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mocks.store.reset());
afterAll(() => server.close());

function seedOrders(count: number) {
  return mocks.store.seed(
    'orders',
    Array.from({ length: count }, (_, i) => ({
      _id: `o${String(i).padStart(4, '0')}`,
      item: `item ${i}`,
      qty: i,
    })),
  );
}

describe('documents', () => {
  it('creates, reads, replaces, patches and deletes a document', async () => {
    const created = await client.data.create<Order>('orders', {
      item: 'pen',
      qty: 2,
      shipping: { city: 'Oslo' },
    });
    expect(created).toMatchObject({ item: 'pen', qty: 2 });
    expect(created._id).toEqual(expect.any(String));
    expect(created._createdAt).toEqual(expect.any(String));

    const fetched = await client.data.get<Order>('orders', created._id);
    expect(fetched).toEqual(created);

    const replaced = await client.data.replace<Order>('orders', created._id, { item: 'pencil', qty: 3 });
    expect(replaced).toMatchObject({
      _id: created._id,
      _createdAt: created._createdAt,
      item: 'pencil',
      qty: 3,
    });
    expect(replaced.shipping).toBeUndefined();

    const patched = await client.data.update<Order>('orders', created._id, {
      qty: null,
      shipping: { city: 'Bergen' },
    });
    expect(patched).toMatchObject({ item: 'pencil', shipping: { city: 'Bergen' } });
    expect('qty' in patched).toBe(false);

    expect(await client.data.delete('orders', created._id)).toEqual({ _id: created._id, deleted: true });
    await expect(client.data.get('orders', created._id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('keeps a supplied _id and refuses a duplicate with ConflictError', async () => {
    await client.data.create('orders', { _id: 'fixed', item: 'a', qty: 1 });
    const error = await client.data
      .create('orders', { _id: 'fixed', item: 'b', qty: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'conflict' });
  });

  it('URL-encodes collection and id segments', async () => {
    const id = 'a b?c#d%e';
    await client.data.create('orders', { _id: id, item: 'odd', qty: 1 });
    expect(await client.data.get('orders', id)).toMatchObject({ _id: id, item: 'odd' });
  });

  it('works through a typed collection handle', async () => {
    const orders = client.data.collection<Order>('orders');
    const created = await orders.create({ item: 'cup', qty: 1 });
    expect((await orders.update(created._id, { qty: 5 })).qty).toBe(5);
    expect((await orders.get(created._id)).item).toBe('cup');
    expect((await orders.list()).total).toBe(1);
    expect(await orders.delete(created._id)).toEqual({ _id: created._id, deleted: true });
  });

  it('writes only the version it read with ifMatch, else rejects with PreconditionFailedError', async () => {
    const created = await client.data.create<Order>('orders', { item: 'cup', qty: 1 }).withResponse();
    const read = await client.data.get<Order>('orders', created.data._id).withResponse();
    const etag = read.response.headers.get('etag')!;
    expect(etag).toBe(created.response.headers.get('etag'));
    const changed = await client.data
      .update<Order>('orders', created.data._id, { qty: 2 }, { ifMatch: etag })
      .withResponse();
    expect(changed.data.qty).toBe(2);
    const stale = client.data.replace<Order>(
      'orders',
      created.data._id,
      { item: 'mug', qty: 3 },
      { ifMatch: etag },
    );
    await expect(stale).rejects.toBeInstanceOf(PreconditionFailedError);
    await expect(
      client.data.collection<Order>('orders').delete(created.data._id, { ifMatch: etag }),
    ).rejects.toMatchObject({ status: 412, code: 'precondition_failed' });
    const fresh = changed.response.headers.get('etag')!;
    const { results } = await client.data.batch([
      { op: 'delete', collection: 'orders', id: created.data._id, ifMatch: fresh },
    ]);
    expect(results[0]).toMatchObject({ status: 200 });
  });
});

describe('errors', () => {
  it('gives NotFoundError with the code and the request id', async () => {
    const error = await client.data.get('orders', 'missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const notFound = error as NotFoundError;
    expect(notFound.code).toBe('not_found');
    expect(notFound.requestId).toMatch(/\S/);
    expect(notFound.requestId).toBe(notFound.headers.get('x-request-id'));
  });

  it('gives AuthenticationError for an unknown or paused key', async () => {
    const unknown = new DataPlatform({ apiKey: 'svc_nope', baseUrl: 'http://localhost:5000' });
    await expect(unknown.data.list('orders')).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    const paused = new DataPlatform({
      apiKey: mocks.addKey({ scopes: ['data:read'], status: 'paused' }),
      baseUrl: 'http://localhost:5000',
    });
    const error = await paused.data.list('orders').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'key_paused' });
  });

  it('sends a bearer token as Authorization', async () => {
    const bearer = new DataPlatform({ token: mocks.apiKey, baseUrl: 'http://localhost:5000' });
    await expect(bearer.data.list('orders')).resolves.toMatchObject({ total: 0 });
  });

  it('gives PermissionDeniedError when the key lacks the scope', async () => {
    const readOnly = new DataPlatform({
      apiKey: mocks.addKey({ scopes: ['data:read'] }),
      baseUrl: 'http://localhost:5000',
    });
    const error = await readOnly.data.create('orders', { item: 'x', qty: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ code: 'insufficient_scope' });
  });

  it('gives BadRequestError for a reserved collection name', async () => {
    // Not create: POST /api/v1/data/batch is the batch route itself.
    const error = await client.data.get('batch', 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ code: 'reserved_collection' });
  });
});

describe('pagination', () => {
  it('awaits to the first page with the list envelope', async () => {
    seedOrders(5);
    const page = await client.data.list<Order>('orders', { limit: 2, sort: '-qty' });
    expect(page).toBeInstanceOf(Page);
    expect(page).toMatchObject({ total: 5, limit: 2, skip: 0 });
    expect(page.data.map((doc) => doc.qty)).toEqual([4, 3]);
    expect(page.hasNextPage()).toBe(true);
    const next = await page.getNextPage();
    expect(next.skip).toBe(2);
    expect(next.data.map((doc) => doc.qty)).toEqual([2, 1]);
  });

  it('walks every document of every page with for await', async () => {
    seedOrders(7);
    const seen: number[] = [];
    for await (const order of client.data.list<Order>('orders', { limit: 3, sort: 'qty' }))
      seen.push(order.qty);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('starts at skip and keeps limit and sort for later pages', async () => {
    seedOrders(6);
    const pages: number[][] = [];
    const first = await client.data.list<Order>('orders', { limit: 2, skip: 1, sort: '-qty' });
    for await (const page of first.iterPages()) pages.push(page.data.map((doc) => doc.qty));
    expect(pages).toEqual([[4, 3], [2, 1], [0]]);
  });

  it('iterate() walks like list()', async () => {
    seedOrders(4);
    const ids: string[] = [];
    for await (const order of client.data.iterate('orders', { limit: 3 })) ids.push(order._id);
    expect(ids).toEqual(['o0000', 'o0001', 'o0002', 'o0003']);
  });

  it('answers an unknown collection with an empty last page', async () => {
    const page = await client.data.list('nothing-here');
    expect(page).toMatchObject({ data: [], total: 0 });
    expect(page.hasNextPage()).toBe(false);
    expect(() => page.getNextPage()).toThrow(/No next page/);
  });
});

describe('raw responses', () => {
  it('asResponse() gives the status and headers of the answer', async () => {
    const response = await client.data.create('orders', { item: 'x', qty: 1 }).asResponse();
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toMatch(/^\/api\/v1\/data\/orders\//);
    expect(await response.json()).toMatchObject({ item: 'x' });
  });

  it('withResponse() gives the data, the response and the request id', async () => {
    const { data, response, requestId } = await client.data.list('orders').withResponse();
    expect(data).toBeInstanceOf(Page);
    expect(response.status).toBe(200);
    expect(requestId).toBe(response.headers.get('x-request-id'));
    expect(requestId).toMatch(/\S/);
  });
});

describe('idempotency', () => {
  it('replays a write sent again with the same Idempotency-Key', async () => {
    const first = await client.data.create('orders', { item: 'once', qty: 1 }, { idempotencyKey: 'order-1' });
    const again = await client.data
      .create('orders', { item: 'once', qty: 1 }, { idempotencyKey: 'order-1' })
      .withResponse();
    expect(again.data).toEqual(first);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(mocks.store.collection('orders')).toHaveLength(1);
  });

  it('does not retry idempotency_mismatch', async () => {
    await client.data.create('orders', { item: 'a', qty: 1 }, { idempotencyKey: 'k' });
    const error = await client.data
      .create('orders', { item: 'b', qty: 1 }, { idempotencyKey: 'k' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'idempotency_mismatch' });
  });
});
