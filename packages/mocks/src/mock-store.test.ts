import { describe, expect, it } from 'vitest';
import { AccountModel } from './accounts.js';
import { ChangeLog } from './change-log.js';
import { DocumentStore } from './document-store.js';
import { IdempotencyLedger } from './idempotency.js';
import { JobLedger } from './imports.js';
import { KeyRing } from './keys.js';
import { createMockStore } from './mock-store.js';
import { WebhookStore } from './webhook-store.js';

function makeStore() {
  const ledger = new IdempotencyLedger();
  return {
    store: createMockStore(
      new DocumentStore(),
      ledger,
      new AccountModel(),
      new JobLedger(),
      new WebhookStore(),
      new KeyRing().managed,
      new ChangeLog(),
    ),
    ledger,
  };
}

describe('MockStore', () => {
  it('seeds documents with generated ids and timestamps, in server key order', () => {
    const { store } = makeStore();
    const [doc] = store.seed('orders', [{ total: 1 }]);
    expect(Object.keys(doc!)).toEqual(['_id', 'total', '_createdAt', '_updatedAt']);
    expect(doc!._updatedAt).toBe(doc!._createdAt);
    expect(store.collection('orders')).toEqual([doc]);
  });

  it('keeps supplied ids and timestamps', () => {
    const { store } = makeStore();
    const [doc] = store.seed('orders', [
      { _updatedAt: '2021-01-01T00:00:00.000Z', x: 1, _createdAt: '2020-01-01T00:00:00.000Z', _id: 'o1' },
    ]);
    expect(doc).toEqual({
      _id: 'o1',
      x: 1,
      _createdAt: '2020-01-01T00:00:00.000Z',
      _updatedAt: '2021-01-01T00:00:00.000Z',
    });
    expect(Object.keys(doc!)).toEqual(['_id', 'x', '_createdAt', '_updatedAt']);
  });

  it('lists a collection in _id order and an unknown one as empty', () => {
    const { store } = makeStore();
    store.seed('orders', [{ _id: 'b' }, { _id: 'a' }]);
    expect(store.collection('orders').map((doc) => doc._id)).toEqual(['a', 'b']);
    expect(store.collection('never')).toEqual([]);
  });

  it('hands out copies, so changing one does not change the store', () => {
    const { store } = makeStore();
    const input = { _id: 'o1', nested: { n: 1 } };
    const [seeded] = store.seed('orders', [input]);
    input.nested.n = 2;
    (seeded!.nested as { n: number }).n = 3;
    (store.collection('orders')[0]!.nested as { n: number }).n = 4;
    expect(store.collection('orders')[0]!.nested).toEqual({ n: 1 });
  });

  it('refuses invalid collections, reserved fields, bad timestamps and taken ids', () => {
    const { store } = makeStore();
    expect(() => store.seed('sql', [{}])).toThrow('seed: Collection name "sql" is reserved');
    expect(() => store.seed('9lives', [{}])).toThrow(/seed: Invalid collection name/);
    expect(() => store.seed('orders', [{ _secret: 1 }])).toThrow(/Field "_secret" is reserved/);
    expect(() => store.seed('orders', [{ _createdAt: 'yesterday' }])).toThrow(
      /_createdAt must be an ISO 8601 string/,
    );
    expect(() => store.seed('orders', [[1] as unknown as Record<string, unknown>])).toThrow(/JSON object/);
    store.seed('orders', [{ _id: 'o1' }]);
    expect(() => store.seed('orders', [{ _id: 'o1' }])).toThrow(
      'seed: document "o1" already exists in "orders"',
    );
  });

  it('reset forgets documents and idempotency records', () => {
    const { store, ledger } = makeStore();
    store.seed('orders', [{ _id: 'o1' }]);
    ledger.record('key', 'POST /x', { status: 201, body: {} });
    store.reset();
    expect(store.collection('orders')).toEqual([]);
    expect(ledger.lookup('key', 'POST /x')).toEqual({ kind: 'new' });
  });
});
