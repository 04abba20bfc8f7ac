import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Result {
  index: number;
  status: number;
  data?: Record<string, unknown>;
  error?: { error: string; code: string };
}

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  const batch = (body: unknown) => t.call('POST', '/api/v1/data/batch', { body });
  const results = async (res: Response): Promise<Result[]> => {
    expect(res.status).toBe(200);
    return (await res.json()).results;
  };
  const total = async (collection: string) =>
    (await (await t.call('GET', `/api/v1/data/${collection}`)).json()).total;
  const read = (collection: string, id: string) => t.call('GET', `/api/v1/data/${collection}/${id}`);

  describe('every operation kind', () => {
    it('inserts, gets, updates (replace), patches and deletes, each answered as its single-document route', async () => {
      const res = await batch({
        operations: [
          { op: 'insert', collection: 'kinds', data: { _id: 'a', n: 1, tags: { x: 1 } } },
          { op: 'insert', collection: 'kinds', id: 'b', data: { n: 2 } },
          { op: 'insert', collection: 'kinds', data: { n: 3 } },
          { op: 'get', collection: 'kinds', id: 'a' },
          { op: 'update', collection: 'kinds', id: 'a', data: { m: 9 } },
          { op: 'patch', collection: 'kinds', id: 'b', data: { n: null, o: { p: 1 } } },
          { op: 'delete', collection: 'kinds', id: 'a' },
        ],
      });
      const list = await results(res);
      expect(list.map((r) => [r.index, r.status])).toEqual([
        [0, 201],
        [1, 201],
        [2, 201],
        [3, 200],
        [4, 200],
        [5, 200],
        [6, 200],
      ]);
      const [a, b, c, got, replaced, patched, deleted] = list.map((r) => r.data!);
      expect(a).toMatchObject({ _id: 'a', n: 1, tags: { x: 1 } });
      expect(a!._createdAt).toMatch(ISO);
      expect(b!._id).toBe('b');
      expect(c!._id).toMatch(/^[0-9A-Z]{26}$/);
      expect(got).toEqual(a);
      expect(replaced).toEqual({ _id: 'a', m: 9, _createdAt: a!._createdAt, _updatedAt: expect.any(String) });
      expect(patched).toEqual({
        _id: 'b',
        o: { p: 1 },
        _createdAt: b!._createdAt,
        _updatedAt: expect.any(String),
      });
      expect(deleted).toEqual({ _id: 'a', deleted: true });
      expect((await read('kinds', 'a')).status).toBe(404);
      expect(await (await read('kinds', 'b')).json()).toEqual(patched);
      expect(await (await read('kinds', String(c!._id))).json()).toEqual(c);
      expect(await total('kinds')).toBe(2);
    });
  });

  describe('without a transaction', () => {
    it('runs every operation on its own: failures answer like the single routes and change nothing else', async () => {
      expect((await t.call('POST', '/api/v1/data/mixed', { body: { _id: 'taken' } })).status).toBe(201);
      const list = await results(
        await batch({
          operations: [
            { op: 'insert', collection: 'mixed', data: { _id: 'one' } },
            { op: 'insert', collection: 'mixed', data: { _id: 'taken' } },
            { op: 'get', collection: 'mixed', id: 'missing' },
            { op: 'patch', collection: 'mixed', id: 'one', data: { _secret: 1 } },
            { op: 'update', collection: 'mixed', id: 'missing', data: {} },
            { op: 'delete', collection: 'mixed', id: 'missing' },
            { op: 'insert', collection: 'sql', data: {} },
            { op: 'get', collection: 'mixed', id: '..' },
            { op: 'insert', collection: 'mixed', data: { _id: 5 } },
            { op: 'insert', collection: 'mixed', data: { _id: 'two' } },
          ],
        }),
      );
      expect(list.map((r) => r.status)).toEqual([201, 409, 404, 400, 404, 404, 400, 400, 400, 201]);
      expect(list.map((r) => r.error?.code ?? null)).toEqual([
        null,
        'conflict',
        'not_found',
        'invalid_body',
        'not_found',
        'not_found',
        'reserved_collection',
        'validation_error',
        'validation_error',
        null,
      ]);
      expect(list[1]).toEqual({
        index: 1,
        status: 409,
        error: { error: expect.any(String), code: 'conflict' },
      });
      expect(list[3]!.data).toBeUndefined();
      expect(await total('mixed')).toBe(3);
      expect(await (await read('mixed', 'one')).json()).not.toHaveProperty('_secret');
    });

    it("fails a document over the single routes' 1 MiB limit with 413 on its own, as POST would", async () => {
      const big = { blob: 'x'.repeat(1024 * 1024) };
      expect((await t.call('POST', '/api/v1/data/sizes', { body: big })).status).toBe(413);
      const list = await results(
        await batch({
          operations: [
            { op: 'insert', collection: 'sizes', data: { _id: 'small' } },
            { op: 'insert', collection: 'sizes', data: big },
            { op: 'update', collection: 'sizes', id: 'small', data: big },
            { op: 'patch', collection: 'sizes', id: 'small', data: big },
          ],
        }),
      );
      expect(list.map((r) => [r.status, r.error?.code ?? null])).toEqual([
        [201, null],
        [413, 'payload_too_large'],
        [413, 'payload_too_large'],
        [413, 'payload_too_large'],
      ]);
      expect(await total('sizes')).toBe(1);
      expect(await (await read('sizes', 'small')).json()).not.toHaveProperty('blob');
    });

    it('applies repeated ids in order: a second insert conflicts, an insert after a delete succeeds', async () => {
      const list = await results(
        await batch({
          operations: [
            { op: 'insert', collection: 'again', data: { _id: 'x', v: 1 } },
            { op: 'insert', collection: 'again', data: { _id: 'x', v: 2 } },
            { op: 'insert', collection: 'again', data: { _id: 'y' } },
            { op: 'delete', collection: 'again', id: 'x' },
            { op: 'insert', collection: 'again', data: { _id: 'x', v: 3 } },
            { op: 'get', collection: 'again', id: 'x' },
          ],
        }),
      );
      expect(list.map((r) => r.status)).toEqual([201, 409, 201, 200, 201, 200]);
      expect(list[5]!.data).toMatchObject({ v: 3 });
      expect(await total('again')).toBe(2);
    });
  });

  describe('patches', () => {
    it('apply in order, the same document twice included, each seeing the one before', async () => {
      for (const _id of ['a', 'b']) await t.call('POST', '/api/v1/data/patches', { body: { _id, n: 0 } });
      const list = await results(
        await batch({
          operations: [
            { op: 'patch', collection: 'patches', id: 'a', data: { n: 1 } },
            { op: 'patch', collection: 'patches', id: 'b', data: { m: 1 } },
            { op: 'patch', collection: 'patches', id: 'missing', data: { n: 1 } },
            { op: 'patch', collection: 'nowhere', id: 'a', data: { n: 1 } },
            { op: 'patch', collection: 'patches', id: 'a', data: { o: { p: 1 } } },
            { op: 'patch', collection: 'patches', id: 'b', data: { n: null } },
          ],
        }),
      );
      expect(list.map((r) => r.status)).toEqual([200, 200, 404, 404, 200, 200]);
      expect(list[4]!.data).toMatchObject({ n: 1, o: { p: 1 } });
      expect(list[5]!.data).toEqual({
        _id: 'b',
        m: 1,
        _createdAt: expect.any(String),
        _updatedAt: expect.any(String),
      });
      expect(await (await read('patches', 'a')).json()).toEqual(list[4]!.data);
    });
  });

  describe('with transaction: true', () => {
    it('applies everything, and reads see the transaction’s earlier writes', async () => {
      const res = await batch({
        transaction: true,
        operations: [
          { op: 'insert', collection: 'tx', data: { _id: 'a', n: 1 } },
          { op: 'get', collection: 'tx', id: 'a' },
          { op: 'patch', collection: 'tx', id: 'a', data: { n: 2 } },
          { op: 'get', collection: 'tx', id: 'a' },
          { op: 'insert', collection: 'tx', data: { _id: 'b' } },
          { op: 'delete', collection: 'tx', id: 'b' },
        ],
      });
      const body = await res.clone().json();
      expect(body.transaction).toBe(true);
      const list = await results(res);
      expect(list.map((r) => r.status)).toEqual([201, 200, 200, 200, 201, 200]);
      expect(list[1]!.data).toMatchObject({ _id: 'a', n: 1 });
      expect(list[3]!.data).toMatchObject({ _id: 'a', n: 2 });
      expect(await total('tx')).toBe(1);
    });

    it.each([
      ['first', 0],
      ['middle', 2],
      ['last', 4],
    ])('keeps nothing when the %s operation fails, and answers 409 transaction_aborted', async (_, at) => {
      const collection = `txfail${at}`;
      await t.call('POST', `/api/v1/data/${collection}`, { body: { _id: 'existing', v: 1 } });
      const operations: unknown[] = [
        { op: 'insert', collection, data: { _id: 'n1' } },
        { op: 'patch', collection, id: 'existing', data: { v: 2 } },
        { op: 'insert', collection, data: { _id: 'n2' } },
        { op: 'delete', collection, id: 'existing' },
        { op: 'insert', collection: `${collection}new`, data: { _id: 'n3' } },
      ];
      operations[at] = { op: 'get', collection, id: 'missing' };
      const res = await batch({ transaction: true, operations });
      expect(res.status).toBe(409);
      const error = await res.json();
      expect(error).toMatchObject({
        code: 'transaction_aborted',
        details: { index: at, status: 404, code: 'not_found' },
      });
      expect(error.requestId).toBe(res.headers.get('x-request-id'));
      expect(await total(collection)).toBe(1);
      expect(await total(`${collection}new`)).toBe(0);
      expect(await (await read(collection, 'existing')).json()).toMatchObject({ v: 1 });
      for (const id of ['n1', 'n2']) expect((await read(collection, id)).status).toBe(404);
    });

    it.each([
      ['a duplicate id', { op: 'insert', collection: 'txkind', data: { _id: 'dup' } }, 409, 'conflict'],
      ['a reserved field', { op: 'insert', collection: 'txkind', data: { _x: 1 } }, 400, 'invalid_body'],
      ['a reserved collection', { op: 'get', collection: 'batch', id: 'a' }, 400, 'reserved_collection'],
    ])('aborts on %s with the status and code of that operation', async (_, failing, status, code) => {
      await t.call('POST', '/api/v1/data/txkind', { body: { _id: 'dup' } });
      const before = await total('txkind');
      const res = await batch({
        transaction: true,
        operations: [{ op: 'insert', collection: 'txkind', data: { fresh: true } }, failing],
      });
      expect(res.status).toBe(409);
      expect((await res.json()).details).toEqual({ index: 1, status, code });
      expect(await total('txkind')).toBe(before);
    });
  });
});
