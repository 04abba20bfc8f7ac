import { routes } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const GENERATED_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

async function create(json: unknown, collection = 'orders') {
  const result = await call('POST', `/api/v1/data/${collection}`, { json });
  expect(result.status).toBe(201);
  return result.body;
}

describe('POST /api/v1/data/{collection}', () => {
  it('stores the document with a generated id, timestamps and a Location header', async () => {
    const result = await call('POST', '/api/v1/data/orders', {
      json: { total: 42, customer: { name: 'Ada' } },
    });
    expect(result.status).toBe(201);
    expect(result.body._id).toMatch(GENERATED_ID);
    expect(result.body._createdAt).toMatch(ISO_UTC);
    expect(result.body._updatedAt).toBe(result.body._createdAt);
    expect(result.body).toMatchObject({ total: 42, customer: { name: 'Ada' } });
    expect(result.headers.get('location')).toBe(`/api/v1/data/orders/${result.body._id}`);
    expect(mocks.store.collection('orders')).toEqual([result.body]);
  });

  it('orders keys as _id, the caller’s fields, _createdAt, _updatedAt', async () => {
    const doc = await create({ b: 1, _id: 'ord_1', a: 2 });
    expect(Object.keys(doc)).toEqual(['_id', 'b', 'a', '_createdAt', '_updatedAt']);
  });

  it('generates ids that sort by creation', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await create({ i }))._id);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(20);
  });

  it('keeps a supplied _id and answers 409 conflict for a duplicate', async () => {
    expect((await create({ _id: 'ord_1', total: 1 }))._id).toBe('ord_1');
    const duplicate = await call('POST', '/api/v1/data/orders', { json: { _id: 'ord_1', total: 2 } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('conflict');
    expect(mocks.store.collection('orders')).toHaveLength(1);
  });

  it('answers 400 validation_error for an _id that is not a valid id string', async () => {
    for (const _id of [7, '', 'a/b', 'x'.repeat(129)]) {
      const result = await call('POST', '/api/v1/data/orders', { json: { _id } });
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ code: 'validation_error', details: { field: '_id' } });
    }
  });

  it('answers 400 invalid_body for a body that is not a JSON object', async () => {
    for (const json of [[1, 2], 'text', 12, true, null]) {
      const result = await call('POST', '/api/v1/data/orders', { json });
      expect(result.status).toBe(400);
      expect(result.body.code).toBe('invalid_body');
    }
    const empty = await call('POST', '/api/v1/data/orders', { rawBody: '' });
    expect(empty.body.code).toBe('invalid_body');
  });

  it('answers 400 invalid_body for reserved top-level fields', async () => {
    for (const field of ['_createdAt', '_updatedAt', '_secret']) {
      const result = await call('POST', '/api/v1/data/orders', { json: { [field]: 'x' } });
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ code: 'invalid_body', details: { field } });
    }
    expect((await call('POST', '/api/v1/data/orders', { json: { nested: { _ok: true } } })).status).toBe(201);
  });

  it('answers 400 invalid_json for malformed JSON', async () => {
    const result = await call('POST', '/api/v1/data/orders', {
      rawBody: '{"total": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('invalid_json');
  });

  it('answers 413 payload_too_large for a body over 1 MiB', async () => {
    const result = await call('POST', '/api/v1/data/orders', { json: { blob: 'x'.repeat(1024 * 1024) } });
    expect(result.status).toBe(413);
    expect(result.body.code).toBe('payload_too_large');
  });
});

describe('collection names', () => {
  it('answers 400 validation_error for an invalid name', async () => {
    for (const name of ['1orders', '_orders', 'a'.repeat(65), 'or%20ders']) {
      const result = await call('POST', `/api/v1/data/${name}`, { json: {} });
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ code: 'validation_error', details: { field: 'collection' } });
    }
  });

  it('answers 400 reserved_collection for names taken by fixed routes, on every route', async () => {
    for (const name of ['sql', 'batch', 'webhooks', 'jobs', 'imports']) {
      for (const [method, path, json] of [
        ['GET', `/api/v1/data/${name}`],
        ['POST', `/api/v1/data/${name}`, {}],
        ['GET', `/api/v1/data/${name}/x`],
        ['PUT', `/api/v1/data/${name}/x`, {}],
        ['PATCH', `/api/v1/data/${name}/x`, {}],
        ['DELETE', `/api/v1/data/${name}/x`],
      ] as const) {
        // A fixed path (POST /api/v1/data/batch, DELETE /api/v1/data/webhooks/{webhookId}, …) answers instead,
        // with 405 for the methods it lacks, as on the server.
        if (routes.some((route) => isFixedRouteFor(route.path, path))) {
          if (!routes.some((route) => route.method === method && isFixedRouteFor(route.path, path))) {
            expect((await call(method, path, { json })).status, `${method} ${path}`).toBe(405);
          }
          continue;
        }
        const result = await call(method, path, { json });
        expect(result.status, `${method} ${path}`).toBe(400);
        expect(result.body.code).toBe('reserved_collection');
      }
    }
  });
});

/** True when `template` is a fixed route (not a collection route) whose pattern matches `path`. */
function isFixedRouteFor(template: string, path: string): boolean {
  if (template.includes('{collection}')) return false;
  const pattern = template.replace(/\{\w+\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(path);
}

describe('GET /api/v1/data/{collection}/{id}', () => {
  it('answers the stored document', async () => {
    const doc = await create({ total: 1 });
    const result = await call('GET', `/api/v1/data/orders/${doc._id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual(doc);
  });

  it('answers 404 not_found for a missing document', async () => {
    const result = await call('GET', '/api/v1/data/orders/missing');
    expect(result.status).toBe(404);
    expect(result.body.code).toBe('not_found');
  });

  it('decodes ids in the path and refuses an encoded slash', async () => {
    const doc = await create({ _id: 'a b ü' });
    expect((await call('GET', `/api/v1/data/orders/${encodeURIComponent(doc._id)}`)).body).toEqual(doc);
    const slash = await call('GET', '/api/v1/data/orders/a%2Fb');
    expect(slash.status).toBe(400);
    expect(slash.body).toMatchObject({ code: 'validation_error', details: { field: 'id' } });
  });
});

describe('PUT /api/v1/data/{collection}/{id}', () => {
  it('replaces every field, keeping _id and _createdAt and refreshing _updatedAt', async () => {
    const [old] = mocks.store.seed('orders', [
      {
        _id: 'o1',
        a: 1,
        b: 2,
        _createdAt: '2020-01-01T00:00:00.000Z',
        _updatedAt: '2020-01-01T00:00:00.000Z',
      },
    ]);
    const result = await call('PUT', '/api/v1/data/orders/o1', { json: { c: 3 } });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      _id: 'o1',
      c: 3,
      _createdAt: old!._createdAt,
      _updatedAt: result.body._updatedAt,
    });
    expect(Object.keys(result.body)).toEqual(['_id', 'c', '_createdAt', '_updatedAt']);
    expect(result.body._updatedAt > old!._updatedAt).toBe(true);
    expect(mocks.store.collection('orders')).toEqual([result.body]);
  });

  it('answers 400 invalid_body for _id or another reserved field in the body', async () => {
    mocks.store.seed('orders', [{ _id: 'o1' }]);
    for (const json of [{ _id: 'o1' }, { _id: 'o2' }, { _createdAt: 'x' }, [1]]) {
      const result = await call('PUT', '/api/v1/data/orders/o1', { json });
      expect(result.status).toBe(400);
      expect(result.body.code).toBe('invalid_body');
    }
  });

  it('answers 404 not_found for a missing document and creates nothing', async () => {
    const result = await call('PUT', '/api/v1/data/orders/missing', { json: { a: 1 } });
    expect(result.status).toBe(404);
    expect(result.body.code).toBe('not_found');
    expect(mocks.store.collection('orders')).toEqual([]);
  });
});

describe('PATCH /api/v1/data/{collection}/{id}', () => {
  it('applies a JSON Merge Patch: null removes, objects merge, arrays are replaced', async () => {
    mocks.store.seed('orders', [{ _id: 'o1', a: 1, drop: true, nested: { x: 1, y: 2 }, tags: ['a', 'b'] }]);
    const result = await call('PATCH', '/api/v1/data/orders/o1', {
      json: { drop: null, nested: { y: null, z: 3 }, tags: ['c'], added: 'new' },
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ _id: 'o1', a: 1, nested: { x: 1, z: 3 }, tags: ['c'], added: 'new' });
    expect(result.body).not.toHaveProperty('drop');
    expect(Object.keys(result.body)).toEqual([
      '_id',
      'a',
      'nested',
      'tags',
      'added',
      '_createdAt',
      '_updatedAt',
    ]);
  });

  it('answers 400 invalid_body for reserved fields, including _id', async () => {
    mocks.store.seed('orders', [{ _id: 'o1' }]);
    for (const json of [{ _id: 'o2' }, { _updatedAt: null }, 'x']) {
      const result = await call('PATCH', '/api/v1/data/orders/o1', { json });
      expect(result.status).toBe(400);
      expect(result.body.code).toBe('invalid_body');
    }
  });

  it('answers 404 not_found for a missing document', async () => {
    const result = await call('PATCH', '/api/v1/data/orders/missing', { json: { a: 1 } });
    expect(result.status).toBe(404);
    expect(result.body.code).toBe('not_found');
  });
});

describe('DELETE /api/v1/data/{collection}/{id}', () => {
  it('answers { _id, deleted: true } and then 404 for the same id', async () => {
    const doc = await create({ total: 1 });
    const result = await call('DELETE', `/api/v1/data/orders/${doc._id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ _id: doc._id, deleted: true });
    expect((await call('GET', `/api/v1/data/orders/${doc._id}`)).status).toBe(404);
    const again = await call('DELETE', `/api/v1/data/orders/${doc._id}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not_found');
  });
});
