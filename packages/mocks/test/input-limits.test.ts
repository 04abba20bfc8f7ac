import { MAX_DOCUMENT_DEPTH } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { BASE_URL, useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

function nestedText(levels: number): string {
  return `${'['.repeat(levels - 1)}{}${']'.repeat(levels - 1)}`;
}

/** The same refusals as the reference server (packages/server/test/input-limits.test.ts), with the same codes. */
describe('what the mocks refuse as the server does', () => {
  it.each([
    ['a document nested too deep', `{"a":${nestedText(MAX_DOCUMENT_DEPTH)}}`, 'too_deep'],
    ['a NUL in a value', '{"s":"\\u0000"}', 'nul_character'],
    ['an unpaired surrogate in a field name', '{"\\ud800":1}', 'unpaired_surrogate'],
    ['an integer past 2^53', '{"n":12345678901234567890}', 'unsafe_integer'],
    ['a number past the largest double', '{"n":1e400}', 'number_out_of_range'],
  ])('refuses %s with 400 validation_error, storing nothing', async (_name, rawBody, reason) => {
    const res = await call('POST', '/api/v1/data/limits', { rawBody });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', details: { reason } });
    expect(mocks.store.collection('limits')).toHaveLength(0);
  });

  it(`stores ${MAX_DOCUMENT_DEPTH} levels`, async () => {
    const res = await call('POST', '/api/v1/data/limits', {
      rawBody: `{"a":${nestedText(MAX_DOCUMENT_DEPTH - 1)}}`,
    });
    expect(res.status).toBe(201);
  });

  it('refuses a body that is not JSON with 415 and bytes that are not UTF-8 with invalid_json', async () => {
    const typed = await call('POST', '/api/v1/data/limits', {
      rawBody: '{"a":1}',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect([typed.status, typed.body.code]).toEqual([415, 'unsupported_media_type']);
    const bytes = await fetch(`${BASE_URL}/api/v1/data/limits`, {
      method: 'POST',
      headers: { 'X-API-Key': mocks.apiKey, 'Content-Type': 'application/json' },
      body: new Uint8Array([0x7b, 0x22, 0x73, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]),
    });
    expect([bytes.status, (await bytes.json()).code]).toEqual([400, 'invalid_json']);
  });

  it('answers a method a path does not have with 405 and Allow', async () => {
    const res = await call('DELETE', '/api/v1/data/limits');
    expect([res.status, res.body.code]).toEqual([405, 'method_not_allowed']);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it.each([
    ['GET', '/api/v1/data/sql', 'POST'],
    ['POST', '/api/v1/data/jobs', 'GET, HEAD'],
    ['PUT', '/api/v1/data/webhooks/wh_1', 'DELETE'],
  ])(
    'answers %s %s, a path of its own, with 405 and Allow: %s, as the server does',
    async (method, path, allow) => {
      const res = await call(method, path, method === 'GET' ? {} : { json: {} });
      expect([res.status, res.body.code]).toEqual([405, 'method_not_allowed']);
      expect(res.headers.get('allow')).toBe(allow);
    },
  );

  it('refuses U+0000 in a URL', async () => {
    const res = await call('GET', '/api/v1/data/limits/a%00');
    expect([res.status, res.body.code]).toEqual([400, 'validation_error']);
  });

  it('fails a batch document over the body limit alone with 413', async () => {
    const res = await call('POST', '/api/v1/data/batch', {
      json: {
        operations: [
          { op: 'insert', collection: 'limits', data: { small: true } },
          { op: 'insert', collection: 'limits', data: { blob: 'x'.repeat(1024 * 1024) } },
        ],
      },
    });
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([201, 413]);
    expect(mocks.store.collection('limits')).toHaveLength(1);
  });

  it('answers a key that may only write with receipts, and an empty patch changes nothing', async () => {
    const writer = mocks.addKey({ scopes: ['data:write'] });
    const created = await call('POST', '/api/v1/data/limits', { key: writer, json: { secret: 's' } });
    expect(Object.keys(created.body).sort()).toEqual(['_createdAt', '_id', '_updatedAt']);
    const empty = await call('PATCH', `/api/v1/data/limits/${created.body._id}`, { key: writer, json: {} });
    expect(empty.body).toEqual(created.body);
    const batch = await call('POST', '/api/v1/data/batch', {
      key: writer,
      json: { operations: [{ op: 'patch', collection: 'limits', id: created.body._id, data: { n: 1 } }] },
    });
    expect(Object.keys(batch.body.results[0].data).sort()).toEqual(['_createdAt', '_id', '_updatedAt']);
  });
});
