import { MAX_DOCUMENT_DEPTH } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

/** JSON text of an object nested `levels` deep, objects and arrays in turn, with a number at the bottom. */
function nestedText(levels: number): string {
  let open = '';
  let close = '';
  for (let level = 1; level <= levels; level++) {
    open += level % 2 ? '{"a":' : '[';
    close = (level % 2 ? '}' : ']') + close;
  }
  return `${open}1${close}`;
}

let collections = 0;
function fresh(prefix: string): string {
  return `${prefix}${++collections}`;
}

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  async function count(collection: string): Promise<number> {
    return (await (await t.call('GET', `/api/v1/data/${collection}`)).json()).total;
  }

  async function expectRefused(
    res: Response,
    status: number,
    code: string,
  ): Promise<Record<string, unknown>> {
    const body = await res.json();
    expect({ status: res.status, code: body.code }).toEqual({ status, code });
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
    return body;
  }

  describe(`documents nested up to ${MAX_DOCUMENT_DEPTH} levels`, () => {
    it(`stores ${MAX_DOCUMENT_DEPTH} levels, and sorting and the SQL helper still answer for the collection`, async () => {
      const c = fresh('deep');
      const created = await t.call('POST', `/api/v1/data/${c}`, { body: nestedText(MAX_DOCUMENT_DEPTH) });
      expect(created.status).toBe(201);
      await t.call('POST', `/api/v1/data/${c}`, { body: { a: 2 } });
      const sorted = await t.call('GET', `/api/v1/data/${c}?sort=-a`);
      expect(sorted.status).toBe(200);
      expect((await sorted.json()).total).toBe(2);
      const sql = await t.call('POST', '/api/v1/data/sql', {
        body: { sql: `SELECT * FROM ${c} WHERE a = 2` },
      });
      expect(sql.status).toBe(200);
      expect((await sql.json()).data).toHaveLength(1);
    });

    it.each([MAX_DOCUMENT_DEPTH + 1, 5_000, 200_000])(
      'refuses %i levels on POST, PUT and PATCH with 400 validation_error, storing nothing',
      async (levels) => {
        const c = fresh('deeper');
        const text = `{"x":${nestedText(levels - 1)}}`;
        const post = await t.call('POST', `/api/v1/data/${c}`, { body: text });
        const body = await expectRefused(post, 400, 'validation_error');
        expect(body.details).toMatchObject({ reason: 'too_deep', limit: MAX_DOCUMENT_DEPTH });
        const doc = await (await t.call('POST', `/api/v1/data/${c}`, { body: { x: 0 } })).json();
        for (const method of ['PUT', 'PATCH']) {
          const res = await t.call(method, `/api/v1/data/${c}/${doc._id}`, { body: text });
          await expectRefused(res, 400, 'validation_error');
        }
        expect(await (await t.call('GET', `/api/v1/data/${c}/${doc._id}`)).json()).toMatchObject({ x: 0 });
        expect(await count(c)).toBe(1);
      },
    );

    it('fails only the too-deep operations of a batch, and a transaction as a whole', async () => {
      const c = fresh('deepbatch');
      const operations = `[{"op":"insert","collection":"${c}","data":{"ok":1}},{"op":"insert","collection":"${c}","data":{"x":${nestedText(5_000)}}}]`;
      const res = await t.call('POST', '/api/v1/data/batch', { body: `{"operations":${operations}}` });
      expect(res.status).toBe(200);
      const { results } = await res.json();
      expect(results.map((r: { status: number }) => r.status)).toEqual([201, 400]);
      expect(results[1].error).toMatchObject({ code: 'validation_error', details: { reason: 'too_deep' } });
      const atomic = await t.call('POST', '/api/v1/data/batch', {
        body: `{"operations":${operations},"transaction":true}`,
      });
      expect((await expectRefused(atomic, 409, 'transaction_aborted')).details).toMatchObject({
        index: 1,
        status: 400,
        code: 'validation_error',
      });
      expect(await count(c)).toBe(1);
    });

    it('refuses a too-deep row of an import and stores the others, the job succeeding', async () => {
      const c = fresh('deepimport');
      const rows = `{"n":1}\n{"x":${nestedText(5_000)}}\n{"n":3}\n`;
      const res = await fetch(`${t.url}/api/v1/data/${c}/import`, {
        method: 'POST',
        headers: { 'x-api-key': t.devKey, 'content-type': 'application/x-ndjson' },
        body: rows,
      });
      const job = await res.json();
      expect(job).toMatchObject({ status: 'succeeded', counts: { rows: 3, inserted: 2, failed: 1 } });
      expect(job.errors).toEqual([expect.objectContaining({ line: 2, code: 'validation_error' })]);
      expect(await count(c)).toBe(2);
    });
  });

  describe('strings that an engine could not store as sent', () => {
    it.each([
      ['a NUL in a value', '{"s":"a\\u0000b"}'],
      ['a NUL in a field name', '{"k\\u0000":1}'],
      ['a NUL in a nested value', '{"a":[{"b":"\\u0000"}]}'],
      ['an unpaired high surrogate', '{"s":"\\ud800"}'],
      ['an unpaired low surrogate in a field name', '{"\\udc00x":1}'],
      ['an _id with an unpaired surrogate', '{"_id":"x\\ud800"}'],
    ])(
      'refuses %s with 400 validation_error on POST, PUT, PATCH and batch, storing nothing',
      async (_name, text) => {
        const c = fresh('unicode');
        await expectRefused(
          await t.call('POST', `/api/v1/data/${c}`, { body: text }),
          400,
          'validation_error',
        );
        const doc = await (await t.call('POST', `/api/v1/data/${c}`, { body: { keep: true } })).json();
        if (!text.includes('_id')) {
          for (const method of ['PUT', 'PATCH']) {
            const res = await t.call(method, `/api/v1/data/${c}/${doc._id}`, { body: text });
            await expectRefused(res, 400, 'validation_error');
          }
        }
        const batch = await t.call('POST', '/api/v1/data/batch', {
          body: `{"operations":[{"op":"insert","collection":"${c}","data":${text}}]}`,
        });
        expect((await batch.json()).results[0]).toMatchObject({
          status: 400,
          error: { code: 'validation_error' },
        });
        expect(await count(c)).toBe(1);
        expect(await (await t.call('GET', `/api/v1/data/${c}/${doc._id}`)).json()).toMatchObject({
          keep: true,
        });
      },
    );

    it('refuses a NUL or a surrogate in the strings of other routes too', async () => {
      const webhook = await t.call('POST', '/api/v1/data/webhooks', {
        body: '{"url":"https://example.com/\\u0000","events":["*"]}',
      });
      await expectRefused(webhook, 400, 'validation_error');
      const sql = await t.call('POST', '/api/v1/data/sql', {
        body: '{"sql":"SELECT * FROM orders WHERE a = ?","params":["\\ud800"]}',
      });
      await expectRefused(sql, 400, 'validation_error');
    });

    it('refuses U+0000 in a path or a query with 400 validation_error', async () => {
      await expectRefused(await t.call('GET', '/api/v1/data/orders/a%00b'), 400, 'validation_error');
      await expectRefused(await t.call('GET', '/api/v1/data/orders?sort=a%00'), 400, 'validation_error');
    });

    it('keeps every well-formed string, astral characters and pairs included', async () => {
      const c = fresh('wellformed');
      const value = { s: 'ünïcode 😀 \ud83d\ude00 \u0001', '': 'empty key', ok: '✓' };
      const res = await t.call('POST', `/api/v1/data/${c}`, { body: value });
      expect(res.status).toBe(201);
      const doc = await res.json();
      expect(await (await t.call('GET', `/api/v1/data/${c}/${doc._id}`)).json()).toMatchObject(value);
    });
  });

  describe('bodies that would be altered on the way in', () => {
    it('refuses bytes that are not UTF-8 with 400 invalid_json instead of storing U+FFFD', async () => {
      const c = fresh('bytes');
      const body = Buffer.concat([Buffer.from('{"s":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
      const res = await fetch(`${t.url}/api/v1/data/${c}`, {
        method: 'POST',
        headers: { 'x-api-key': t.devKey, 'content-type': 'application/json' },
        body,
      });
      await expectRefused(res, 400, 'invalid_json');
      expect(await count(c)).toBe(0);
    });

    it.each([
      ['a number past the largest double', '{"n":1e400}', 'number_out_of_range'],
      ['an integer past 2^53', '{"n":12345678901234567890}', 'unsafe_integer'],
      ['a negative integer past 2^53', '{"n":[-9007199254740993]}', 'unsafe_integer'],
    ])(
      'refuses %s with 400 validation_error instead of storing another value',
      async (_name, text, reason) => {
        const c = fresh('numbers');
        const res = await t.call('POST', `/api/v1/data/${c}`, { body: text });
        expect((await expectRefused(res, 400, 'validation_error')).details).toMatchObject({ reason });
        const batch = await t.call('POST', '/api/v1/data/batch', {
          body: `{"operations":[{"op":"insert","collection":"${c}","data":${text}}]}`,
        });
        await expectRefused(batch, 400, 'validation_error');
        expect(await count(c)).toBe(0);
      },
    );

    it('keeps the largest exact integers and decimals as sent', async () => {
      const c = fresh('exact');
      const res = await t.call('POST', `/api/v1/data/${c}`, {
        body: '{"max":9007199254740991,"min":-9007199254740991,"avogadro":6.02214076e23,"tiny":1e-300}',
      });
      expect(res.status).toBe(201);
      const doc = await res.json();
      expect(doc).toMatchObject({
        max: Number.MAX_SAFE_INTEGER,
        min: Number.MIN_SAFE_INTEGER,
        avogadro: 6.02214076e23,
        tiny: 1e-300,
      });
    });

    it('refuses an import whose bytes are not UTF-8, naming the code, rather than storing U+FFFD', async () => {
      const c = fresh('latin1');
      const res = await fetch(`${t.url}/api/v1/data/${c}/import`, {
        method: 'POST',
        headers: { 'x-api-key': t.devKey, 'content-type': 'text/csv' },
        body: Buffer.concat([Buffer.from('name\ncaf'), Buffer.from([0xe9]), Buffer.from('\n')]),
      });
      const job = await res.json();
      expect(job).toMatchObject({ status: 'failed', failure: { code: 'invalid_utf8' } });
      expect(await count(c)).toBe(0);
    });
  });

  describe('document ids', () => {
    it.each([
      ['128 ASCII characters', 'i'.repeat(128)],
      ['101 characters', 'x'.repeat(101)],
      ['128 characters of four-byte UTF-8', '😀'.repeat(64)],
      ['128 characters of three-byte UTF-8', '€'.repeat(128)],
    ])('reaches an id of %s by GET, PUT, PATCH and DELETE', async (_name, id) => {
      const c = fresh('ids');
      const path = `/api/v1/data/${c}/${encodeURIComponent(id)}`;
      const created = await t.call('POST', `/api/v1/data/${c}`, { body: { _id: id, v: 1 } });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe(path);
      expect((await t.call('GET', path)).status).toBe(200);
      expect((await t.call('PUT', path, { body: { v: 2 } })).status).toBe(200);
      expect(await (await t.call('PATCH', path, { body: { w: 3 } })).json()).toMatchObject({
        _id: id,
        v: 2,
        w: 3,
      });
      expect((await t.call('DELETE', path)).status).toBe(200);
      expect((await t.call('GET', path)).status).toBe(404);
    });

    it('refuses an id of 129 characters with 400 validation_error', async () => {
      const res = await t.call('GET', `/api/v1/data/orders/${'x'.repeat(129)}`);
      await expectRefused(res, 400, 'validation_error');
    });
  });
});
