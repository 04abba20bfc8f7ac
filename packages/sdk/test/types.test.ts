import type { DeletedResponse, StoredDocument } from '@dataplatform/contract';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type APIErrorCode,
  type APIPromise,
  type Collection,
  DataPlatform,
  type NotFoundError,
  type Page,
  type PagePromise,
} from '../src/index.js';

interface Order {
  item: string;
  qty: number;
  shipping?: { city: string };
}

// Checked by `tsc` (the package typecheck); at run time these calls only build promises that are never sent.
const client = new DataPlatform({ fetch: async () => new Response('{}'), maxRetries: 0 });

describe('types', () => {
  it('types documents by the generic parameter', () => {
    expectTypeOf(client.data.get<Order>('orders', 'a')).toEqualTypeOf<APIPromise<StoredDocument<Order>>>();
    expectTypeOf(client.data.create('orders', { item: 'x', qty: 1 })).toEqualTypeOf<
      APIPromise<StoredDocument<{ item: string; qty: number }>>
    >();
    expectTypeOf(client.data.delete('orders', 'a')).toEqualTypeOf<APIPromise<DeletedResponse>>();
    expectTypeOf<StoredDocument<Order>['_id']>().toEqualTypeOf<string>();
  });

  it('types pages and their items', () => {
    const list = client.data.list<Order>('orders');
    expectTypeOf(list).toEqualTypeOf<PagePromise<StoredDocument<Order>>>();
    expectTypeOf(list).resolves.toEqualTypeOf<Page<StoredDocument<Order>>>();
    expectTypeOf(list).toExtend<AsyncIterable<StoredDocument<Order>>>();
  });

  it('accepts merge patches with null and nested partial objects', () => {
    client.data.update<Order>('orders', 'a', { qty: null, shipping: { city: 'Oslo' } });
    // @ts-expect-error qty is a number
    client.data.update<Order>('orders', 'a', { qty: 'many' });
  });

  it('gives a typed collection handle', () => {
    const orders = client.data.collection<Order>('orders');
    expectTypeOf(orders).toEqualTypeOf<Collection<Order>>();
    expectTypeOf(orders.get('a')).resolves.toEqualTypeOf<StoredDocument<Order>>();
    // @ts-expect-error item is required
    orders.create({ qty: 1 });
  });

  it('types error codes as the documented codes or any string', () => {
    expectTypeOf<NotFoundError['code']>().toEqualTypeOf<APIErrorCode | undefined>();
    expectTypeOf<NotFoundError['status']>().toEqualTypeOf<404>();
    expectTypeOf<'not_found'>().toExtend<APIErrorCode>();
  });
});
