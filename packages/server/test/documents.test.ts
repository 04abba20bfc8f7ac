import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

forEachEngine((server, engine) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  describe('creating documents', () => {
    it('stores any JSON object and answers 201 with the document, its id, timestamps and Location', async () => {
      const res = await t.call('POST', '/api/v1/data/orders', {
        body: { total: 42, items: [{ sku: 'a' }], note: 'ünïcode ✓' },
      });
      expect(res.status).toBe(201);
      const doc = await res.json();
      expect(doc).toMatchObject({ total: 42, items: [{ sku: 'a' }], note: 'ünïcode ✓' });
      expect(doc._id).toMatch(/^[0-9A-Z]{26}$/);
      expect(doc._createdAt).toMatch(ISO);
      expect(doc._updatedAt).toBe(doc._createdAt);
      const keys = Object.keys(doc);
      expect([keys[0], ...keys.slice(-2)]).toEqual(['_id', '_createdAt', '_updatedAt']);
      // SQLite keeps the caller's field order; PostgreSQL's jsonb keeps its own.
      if (engine === 'sqlite')
        expect(keys).toEqual(['_id', 'total', 'items', 'note', '_createdAt', '_updatedAt']);
      expect(res.headers.get('location')).toBe(`/api/v1/data/orders/${doc._id}`);
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    });

    it('keeps a supplied _id and refuses a second document with it (409 conflict)', async () => {
      const first = await t.call('POST', '/api/v1/data/people', {
        body: { _id: 'ada@example.com', name: 'Ada' },
      });
      expect(first.status).toBe(201);
      expect((await first.json())._id).toBe('ada@example.com');
      expect(first.headers.get('location')).toBe('/api/v1/data/people/ada%40example.com');
      const again = await t.call('POST', '/api/v1/data/people', {
        body: { _id: 'ada@example.com', name: 'Other' },
      });
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ code: 'conflict' });
      const stored = await (await t.call('GET', '/api/v1/data/people/ada%40example.com')).json();
      expect(stored.name).toBe('Ada');
    });

    it('generates ids that sort by creation', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 20; i++)
        ids.push((await (await t.call('POST', '/api/v1/data/seq', { body: { i } })).json())._id);
      expect([...ids].sort()).toEqual(ids);
    });

    it.each([
      ['an array', '[1,2]', 'invalid_body'],
      ['a string', '"text"', 'invalid_body'],
      ['null', 'null', 'invalid_body'],
      ['no body', '', 'invalid_body'],
      ['malformed JSON', '{"a":', 'invalid_json'],
      ['a __proto__ key', '{"__proto__":{"admin":true}}', 'invalid_json'],
      ['a reserved field', '{"_createdAt":"x"}', 'invalid_body'],
      ['a reserved field _secret', '{"_secret":1}', 'invalid_body'],
      ['a non-string _id', '{"_id":5}', 'validation_error'],
      ['an _id with a slash', '{"_id":"a/b"}', 'validation_error'],
      ['the _id ".."', '{"_id":".."}', 'validation_error'],
    ])('refuses %s with 400 %s and stores nothing', async (_name, body, code) => {
      const before = (await (await t.call('GET', '/api/v1/data/refused')).json()).total;
      const res = await t.call('POST', '/api/v1/data/refused', {
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      const error = await res.json();
      expect(error.code).toBe(code);
      expect(error.requestId).toBe(res.headers.get('x-request-id'));
      expect((await (await t.call('GET', '/api/v1/data/refused')).json()).total).toBe(before);
    });

    it('accepts a body without a Content-Type as JSON', async () => {
      // Bytes, not a string: fetch would label a string text/plain.
      const res = await fetch(`${t.url}/api/v1/data/plain`, {
        method: 'POST',
        headers: { 'x-api-key': t.devKey },
        body: new TextEncoder().encode('{"a":1}'),
      });
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.status).toBe(201);
    });

    it.each(['application/merge-patch+json', 'application/json; charset=UTF-8', 'Application/JSON'])(
      'accepts a body sent as %s',
      async (type) => {
        const res = await t.call('POST', '/api/v1/data/typed', {
          body: '{"a":1}',
          headers: { 'content-type': type },
        });
        expect(res.status).toBe(201);
      },
    );

    it.each([
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      'multipart/form-data; boundary=x',
    ])('refuses a body sent as %s with 415 unsupported_media_type, storing nothing', async (type) => {
      const res = await t.call('POST', '/api/v1/data/untyped', {
        body: '{"a":1}',
        headers: { 'content-type': type },
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({
        code: 'unsupported_media_type',
        requestId: expect.any(String),
      });
      const list = await (await t.call('GET', '/api/v1/data/untyped')).json();
      expect(list.total).toBe(0);
    });

    it('refuses a body over 1 MiB with 413 payload_too_large', async () => {
      const res = await t.call('POST', '/api/v1/data/big', { body: { blob: 'x'.repeat(1024 * 1024) } });
      expect(res.status).toBe(413);
      expect((await res.json()).code).toBe('payload_too_large');
    });

    it.each([
      ['sql', 'reserved_collection'],
      ['batch', 'reserved_collection'],
      ['imports', 'reserved_collection'],
      ['1abc', 'validation_error'],
      ['a'.repeat(65), 'validation_error'],
      ['has.dot', 'validation_error'],
    ])('refuses the collection name %s with 400 %s', async (name, code) => {
      // PUT, because POST /api/v1/data/sql and /batch are fixed routes of their own (and /webhooks/{webhookId},
      // a path of its own, answers PUT with 405).
      const res = await t.call('PUT', `/api/v1/data/${name}/doc`, { body: { a: 1 } });
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe(code);
    });
  });

  describe('reading, replacing, patching and deleting', () => {
    it('gets a document by id and answers 404 not_found for a missing one', async () => {
      const created = await (await t.call('POST', '/api/v1/data/things', { body: { a: 1 } })).json();
      const res = await t.call('GET', `/api/v1/data/things/${created._id}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(created);
      const missing = await t.call('GET', '/api/v1/data/things/nope');
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ code: 'not_found' });
      expect((await t.call('GET', '/api/v1/data/never-written/x')).status).toBe(404);
    });

    it('replaces every field with PUT, keeping _id and _createdAt', async () => {
      const created = await (await t.call('POST', '/api/v1/data/things', { body: { a: 1, b: 2 } })).json();
      await new Promise((r) => setTimeout(r, 5));
      const res = await t.call('PUT', `/api/v1/data/things/${created._id}`, { body: { c: 3 } });
      expect(res.status).toBe(200);
      const replaced = await res.json();
      expect(replaced).toEqual({
        _id: created._id,
        c: 3,
        _createdAt: created._createdAt,
        _updatedAt: replaced._updatedAt,
      });
      expect(replaced._updatedAt > created._updatedAt).toBe(true);
      expect(await (await t.call('GET', `/api/v1/data/things/${created._id}`)).json()).toEqual(replaced);
    });

    it('refuses PUT of a missing document (404) and of reserved fields (400)', async () => {
      expect((await t.call('PUT', '/api/v1/data/things/missing', { body: { a: 1 } })).status).toBe(404);
      const created = await (await t.call('POST', '/api/v1/data/things', { body: { a: 1 } })).json();
      const res = await t.call('PUT', `/api/v1/data/things/${created._id}`, { body: { _id: 'other', a: 2 } });
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe('invalid_body');
    });

    it('applies a JSON Merge Patch with PATCH', async () => {
      const created = await (
        await t.call('POST', '/api/v1/data/things', { body: { a: 1, nested: { x: 1, y: 2 }, gone: true } })
      ).json();
      const res = await t.call('PATCH', `/api/v1/data/things/${created._id}`, {
        body: { a: 2, nested: { y: null, z: 3 }, gone: null },
      });
      expect(res.status).toBe(200);
      const patched = await res.json();
      expect(patched).toMatchObject({
        _id: created._id,
        a: 2,
        nested: { x: 1, z: 3 },
        _createdAt: created._createdAt,
      });
      expect(patched).not.toHaveProperty('gone');
      expect(patched.nested).not.toHaveProperty('y');
      expect((await t.call('PATCH', '/api/v1/data/things/missing', { body: { a: 1 } })).status).toBe(404);
    });

    it('deletes a document once and answers 404 the second time', async () => {
      const created = await (await t.call('POST', '/api/v1/data/things', { body: { a: 1 } })).json();
      const res = await t.call('DELETE', `/api/v1/data/things/${created._id}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ _id: created._id, deleted: true });
      expect((await t.call('GET', `/api/v1/data/things/${created._id}`)).status).toBe(404);
      expect((await t.call('DELETE', `/api/v1/data/things/${created._id}`)).status).toBe(404);
    });

    it('answers unknown routes with 404 not_found in the error shape', async () => {
      const res = await t.call('GET', '/api/v2/nothing');
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'not_found', requestId: expect.any(String) });
    });

    it('echoes a sane X-Request-Id', async () => {
      const res = await t.call('GET', '/api/v1/data/things', { headers: { 'x-request-id': 'trace-123' } });
      expect(res.headers.get('x-request-id')).toBe('trace-123');
    });
  });
});
