import { compareDocuments, parseSort, type SortKey } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

// Values of every JSON type, including the ones that sort awkwardly.
const VALUES = [null, true, false, 0, -1.5, 10, 2, 'a', 'B', 'é', '😀', '', [1], { k: 1 }, undefined];

function randomDoc(i: number): Record<string, unknown> {
  const pick = () => VALUES[Math.floor(Math.random() * VALUES.length)];
  const doc: Record<string, unknown> = { i, v: pick(), nested: { w: pick() } };
  if (doc.v === undefined) delete doc.v;
  return doc;
}

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  async function list(collection: string, query = '') {
    const res = await t.call('GET', `/api/v1/data/${collection}${query}`);
    return { status: res.status, body: await res.json() };
  }

  describe('listing a collection', () => {
    it('answers 200 with no data and total 0 for a collection never written to', async () => {
      expect(await list('empty')).toEqual({ status: 200, body: { data: [], total: 0, limit: 50, skip: 0 } });
    });

    it('pages with limit and skip in creation order and counts every document in total', async () => {
      for (let i = 0; i < 7; i++) await t.call('POST', '/api/v1/data/paged', { body: { i } });
      const first = await list('paged', '?limit=3');
      expect(first.body.total).toBe(7);
      expect(first.body.data.map((d: { i: number }) => d.i)).toEqual([0, 1, 2]);
      const last = await list('paged', '?limit=3&skip=6');
      expect(last.body).toMatchObject({ total: 7, limit: 3, skip: 6 });
      expect(last.body.data.map((d: { i: number }) => d.i)).toEqual([6]);
      const doc = first.body.data[0];
      await t.call('DELETE', `/api/v1/data/paged/${doc._id}`);
      expect((await list('paged')).body.total).toBe(6);
    });

    it('sorts by -_createdAt with the newest first', async () => {
      const { body } = await list('paged', '?sort=-_createdAt');
      const ids = body.data.map((d: { _id: string }) => d._id);
      expect(ids).toEqual([...ids].sort().reverse());
    });

    it.each([
      ['limit=0'],
      ['limit=1001'],
      ['limit=abc'],
      ['skip=-1'],
      // An empty or blank number is not 0: the document says integer.
      ['skip='],
      ['limit=%20'],
      ['sort=a..b'],
      ['sort=-'],
      ['sort=a,,b'],
      ['sort=a%20b'],
    ])('refuses %s with 400 validation_error', async (query) => {
      const res = await list('paged', `?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
    });

    it.each(['v', '-v', 'nested.w', '-nested.w,v', 'v,-i', 'missing', '-_updatedAt'])(
      'orders mixed JSON types by %s exactly as the contract documents',
      async (sort) => {
        const collection = `mixed${Math.random().toString(36).slice(2, 8)}`;
        for (let i = 0; i < 40; i++)
          await t.call('POST', `/api/v1/data/${collection}`, { body: randomDoc(i) });
        const all = (await list(collection, '?limit=1000')).body.data;
        const keys = parseSort(sort) as SortKey[];
        const expected = [...all].sort((a, b) => compareDocuments(a, b, keys)).map((d) => d.i);
        const { body } = await list(collection, `?limit=1000&sort=${encodeURIComponent(sort)}`);
        expect(body.data.map((d: { i: number }) => d.i)).toEqual(expected);
        const paged = [];
        for (let skip = 0; skip < 40; skip += 7) {
          paged.push(
            ...(await list(collection, `?limit=7&skip=${skip}&sort=${encodeURIComponent(sort)}`)).body.data,
          );
        }
        expect(paged.map((d) => d.i)).toEqual(expected);
      },
    );
  });
});
