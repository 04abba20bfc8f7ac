import { describe, expect, it } from 'vitest';
import { useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

async function list(query = '', collection = 'people') {
  const result = await call('GET', `/api/v1/data/${collection}${query}`);
  expect(result.status).toBe(200);
  return result.body;
}

const ids = (page: { data: { _id: string }[] }) => page.data.map((doc) => doc._id);

describe('GET /api/v1/data/{collection}', () => {
  it('answers 200 with no data for a collection never written', async () => {
    expect(await list('', 'nothingHere')).toEqual({ data: [], total: 0, limit: 50, skip: 0 });
  });

  it('lists in _id order by default, which is creation order for generated ids', async () => {
    const created: string[] = [];
    for (const name of ['c', 'a', 'b']) {
      created.push((await call('POST', '/api/v1/data/people', { json: { name } })).body._id);
    }
    mocks.store.seed('other', [{ _id: 'b' }, { _id: 'a' }, { _id: 'C' }]);
    expect(ids(await list())).toEqual(created);
    expect(ids(await list('', 'other'))).toEqual(['C', 'a', 'b']);
  });

  it('pages with limit and skip and reports the total of the whole collection', async () => {
    mocks.store.seed(
      'people',
      Array.from({ length: 7 }, (_, i) => ({ _id: `p${i}` })),
    );
    expect(await list('?limit=3&skip=2')).toMatchObject({ total: 7, limit: 3, skip: 2 });
    expect(ids(await list('?limit=3&skip=2'))).toEqual(['p2', 'p3', 'p4']);
    expect(ids(await list('?limit=3&skip=6'))).toEqual(['p6']);
    expect(await list('?skip=10')).toEqual({ data: [], total: 7, limit: 50, skip: 10 });
  });

  it('returns at most 50 documents without a limit', async () => {
    mocks.store.seed(
      'people',
      Array.from({ length: 60 }, (_, i) => ({ _id: `p${String(i).padStart(2, '0')}` })),
    );
    const page = await list();
    expect(page.data).toHaveLength(50);
    expect(page.total).toBe(60);
  });

  it('sorts by a field, descending with "-", ties broken by _id in the direction of the last key', async () => {
    mocks.store.seed('people', [
      { _id: 'd', age: 30 },
      { _id: 'a', age: 30 },
      { _id: 'c', age: 25 },
      { _id: 'b', age: 41 },
    ]);
    expect(ids(await list('?sort=age'))).toEqual(['c', 'a', 'd', 'b']);
    expect(ids(await list('?sort=-age'))).toEqual(['b', 'd', 'a', 'c']);
    expect(ids(await list('?sort=-age,name'))).toEqual(['b', 'a', 'd', 'c']);
  });

  it('sorts by several keys and by dotted paths', async () => {
    mocks.store.seed('people', [
      { _id: '1', team: 'red', address: { city: 'Oslo' } },
      { _id: '2', team: 'blue', address: { city: 'Bergen' } },
      { _id: '3', team: 'red', address: { city: 'Bergen' } },
      { _id: '4', team: 'blue', address: { city: 'Oslo' } },
    ]);
    expect(ids(await list('?sort=address.city'))).toEqual(['2', '3', '1', '4']);
    expect(ids(await list('?sort=-team,address.city'))).toEqual(['3', '1', '2', '4']);
  });

  it('orders mixed types: missing and null, booleans, numbers, strings, then objects', async () => {
    mocks.store.seed('people', [
      { _id: 'str', v: 'a' },
      { _id: 'obj', v: { a: 1 } },
      { _id: 'num', v: 10 },
      { _id: 'missing' },
      { _id: 'bool', v: true },
      { _id: 'null', v: null },
      { _id: 'small', v: -1 },
    ]);
    expect(ids(await list('?sort=v'))).toEqual(['missing', 'null', 'bool', 'small', 'num', 'str', 'obj']);
  });

  it('sorts and pages together', async () => {
    mocks.store.seed(
      'people',
      [5, 3, 9, 1, 7].map((n) => ({ _id: `n${n}`, n })),
    );
    expect(ids(await list('?sort=-n&limit=2&skip=1'))).toEqual(['n7', 'n5']);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=', 'limit'],
    ['skip=-1', 'skip'],
    ['skip=x', 'skip'],
    ['sort=', 'sort'],
    ['sort=a..b', 'sort'],
    ['sort=--a', 'sort'],
    ['sort=a,', 'sort'],
    ['sort=1a', 'sort'],
  ])('answers 400 validation_error for %s', async (query, field) => {
    const result = await call('GET', `/api/v1/data/people?${query}`);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code: 'validation_error', details: { field } });
  });

  it('accepts the bounds of limit', async () => {
    expect((await list('?limit=1')).limit).toBe(1);
    expect((await list('?limit=1000')).limit).toBe(1000);
  });
});
