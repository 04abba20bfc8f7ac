import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  async function created(collection: string, body: object) {
    const res = await t.call('POST', `/api/v1/data/${collection}`, { body });
    expect(res.status).toBe(201);
    return { doc: await res.json(), etag: res.headers.get('etag')! };
  }

  describe('entity tags', () => {
    it('tags every document answer with the SHA-1 of its JSON text, the same on a read as on the write', async () => {
      const { doc, etag } = await created('tagged', { n: 1 });
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      const read = await t.call('GET', `/api/v1/data/tagged/${doc._id}`);
      const text = await read.text();
      expect(read.headers.get('etag')).toBe(etag);
      expect(etag).toBe(`"${createHash('sha1').update(text).digest('base64url')}"`);
      const patched = await t.call('PATCH', `/api/v1/data/tagged/${doc._id}`, { body: { n: 2 } });
      expect(patched.headers.get('etag')).not.toBe(etag);
      expect((await t.call('GET', `/api/v1/data/tagged/${doc._id}`)).headers.get('etag')).toBe(
        patched.headers.get('etag'),
      );
    });

    it('answers a read 304 without a body while If-None-Match lists the current tag, 200 once it changed', async () => {
      const { doc, etag } = await created('cached', { n: 1 });
      const path = `/api/v1/data/cached/${doc._id}`;
      const same = await t.call('GET', path, { headers: { 'if-none-match': `"other", W/${etag}` } });
      expect(same.status).toBe(304);
      expect(same.headers.get('etag')).toBe(etag);
      expect(await same.text()).toBe('');
      await t.call('PUT', path, { body: { n: 2 } });
      const changed = await t.call('GET', path, { headers: { 'if-none-match': etag } });
      expect(changed.status).toBe(200);
      expect(await changed.json()).toMatchObject({ n: 2 });
    });
  });

  describe('If-Match', () => {
    it.each([
      ['PUT', { n: 5 }],
      ['PATCH', { n: 5 }],
      ['DELETE', undefined],
    ] as const)(
      '%s with a stale tag answers 412 precondition_failed and writes nothing',
      async (method, body) => {
        const { doc, etag } = await created('guarded', { n: 1 });
        const path = `/api/v1/data/guarded/${doc._id}`;
        await t.call('PATCH', path, { body: { n: 2 } });
        const stale = await t.call(method, path, { body, headers: { 'if-match': etag } });
        expect(stale.status).toBe(412);
        expect(await stale.json()).toMatchObject({ code: 'precondition_failed' });
        const stored = await t.call('GET', path);
        expect(await stored.json()).toMatchObject({ n: 2, _updatedAt: expect.any(String) });
      },
    );

    it.each([
      ['PUT', { n: 5 }, 200],
      ['PATCH', { n: 5 }, 200],
      ['DELETE', undefined, 200],
    ] as const)('%s with the current tag (or *) writes', async (method, body, status) => {
      for (const condition of ['current', '*']) {
        const { doc, etag } = await created('guarded', { n: 1 });
        const path = `/api/v1/data/guarded/${doc._id}`;
        const ifMatch = condition === '*' ? '*' : `"x", ${etag}`;
        const res = await t.call(method, path, { body, headers: { 'if-match': ifMatch } });
        expect(res.status).toBe(status);
      }
    });

    it('answers 404 for a missing document whatever If-Match says, and refuses a weak tag', async () => {
      const missing = await t.call('PUT', '/api/v1/data/guarded/nope', {
        body: { n: 1 },
        headers: { 'if-match': '*' },
      });
      expect(missing.status).toBe(404);
      const { doc, etag } = await created('guarded', { n: 1 });
      const weak = await t.call('DELETE', `/api/v1/data/guarded/${doc._id}`, {
        headers: { 'if-match': `W/${etag}` },
      });
      expect(weak.status).toBe(412);
    });

    it('an empty PATCH with a stale tag is 412 too, though it writes nothing either way', async () => {
      const { doc, etag } = await created('guarded', { n: 1 });
      const path = `/api/v1/data/guarded/${doc._id}`;
      await t.call('PATCH', path, { body: { n: 2 } });
      expect((await t.call('PATCH', path, { body: {}, headers: { 'if-match': etag } })).status).toBe(412);
    });

    it('lets exactly one of two writers holding the same tag win', async () => {
      for (let round = 0; round < 5; round++) {
        const { doc, etag } = await created('raced', { n: 0 });
        const path = `/api/v1/data/raced/${doc._id}`;
        const answers = await Promise.all(
          [1, 2].map((n) => t.call('PATCH', path, { body: { n }, headers: { 'if-match': etag } })),
        );
        expect(answers.map((res) => res.status).sort()).toEqual([200, 412]);
        const winner = await answers.find((res) => res.status === 200)!.json();
        expect(await (await t.call('GET', path)).json()).toMatchObject({ n: winner.n });
      }
    });

    it('holds per operation in a batch: a stale ifMatch fails its operation alone, or aborts a transaction', async () => {
      const { doc: a, etag: tagA } = await created('batched', { n: 1 });
      const { doc: b, etag: tagB } = await created('batched', { n: 1 });
      await t.call('PATCH', `/api/v1/data/batched/${b._id}`, { body: { n: 2 } });
      const res = await t.call('POST', '/api/v1/data/batch', {
        body: {
          operations: [
            { op: 'patch', collection: 'batched', id: a._id, data: { n: 10 }, ifMatch: tagA },
            { op: 'delete', collection: 'batched', id: b._id, ifMatch: tagB },
          ],
        },
      });
      expect(res.status).toBe(200);
      const { results } = await res.json();
      expect(results.map((r: { status: number }) => r.status)).toEqual([200, 412]);
      expect(results[1].error.code).toBe('precondition_failed');

      const aborted = await t.call('POST', '/api/v1/data/batch', {
        body: {
          transaction: true,
          operations: [
            { op: 'update', collection: 'batched', id: a._id, data: { n: 20 } },
            { op: 'patch', collection: 'batched', id: b._id, data: { n: 3 }, ifMatch: tagB },
          ],
        },
      });
      expect(aborted.status).toBe(409);
      expect(await (await t.call('GET', `/api/v1/data/batched/${a._id}`)).json()).toMatchObject({ n: 10 });
    });

    it('refuses an ifMatch on a batch operation that takes none', async () => {
      const res = await t.call('POST', '/api/v1/data/batch', {
        body: { operations: [{ op: 'insert', collection: 'batched', data: {}, ifMatch: '*' }] },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid_batch' });
    });
  });
});
