import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, forEachEngine, signUp, type TestServer } from './helpers.js';

interface JobBody {
  _id: string;
  status: string;
  input: Record<string, unknown>;
  counts: { rows: number; inserted: number; failed: number };
  bytes: number;
  errors: { line: number; code: string; message: string }[];
  failure: { code: string; message: string } | null;
  startedAt: string | null;
  finishedAt: string | null;
}

let collections = 0;
/** A collection name no other test of the file uses. */
function fresh(prefix: string): string {
  return `${prefix}${++collections}`;
}

function ndjson(
  count: number,
  first = 0,
  extra: (i: number) => Record<string, unknown> = () => ({}),
): string {
  let text = '';
  for (let i = first; i < first + count; i++) text += `${JSON.stringify({ i, ...extra(i) })}\n`;
  return text;
}

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });

  async function upload(
    collection: string,
    body: string | Buffer | Readable,
    options: { query?: string; headers?: Record<string, string>; key?: string | null } = {},
  ) {
    const headers: Record<string, string> = { 'content-type': 'application/x-ndjson', ...options.headers };
    const key = options.key === undefined ? t.devKey : options.key;
    if (key !== null) headers['x-api-key'] = key;
    const res = await fetch(`${t.url}/api/v1/data/${collection}/import${options.query ?? ''}`, {
      method: 'POST',
      headers,
      body: body instanceof Readable ? (Readable.toWeb(body) as ReadableStream) : body,
      duplex: 'half',
    } as RequestInit);
    return { status: res.status, job: (await res.json()) as JobBody };
  }

  async function all(collection: string): Promise<Record<string, unknown>[]> {
    const docs: Record<string, unknown>[] = [];
    for (let skip = 0; ; skip += 1000) {
      const page = await (await t.call('GET', `/api/v1/data/${collection}?limit=1000&skip=${skip}`)).json();
      docs.push(...page.data);
      if (docs.length >= page.total) return docs;
    }
  }

  describe('importing a file', () => {
    it('stores every row of an NDJSON body and answers 202 with the finished job', async () => {
      const c = fresh('nd');
      const body = '{"a":1}\n\n{"_id":"mine","a":2}\r\n{"a":3}';
      const { status, job } = await upload(c, body);
      expect(status).toBe(202);
      expect(job).toMatchObject({
        status: 'succeeded',
        kind: 'import',
        input: { collection: c, format: 'ndjson', onError: 'skip', infer: true },
        counts: { rows: 3, inserted: 3, failed: 0 },
        bytes: Buffer.byteLength(body),
        errors: [],
        failure: null,
      });
      expect(job.finishedAt).not.toBeNull();
      const docs = await all(c);
      expect(docs.map((d) => d.a).sort()).toEqual([1, 2, 3]);
      expect(docs.find((d) => d.a === 2)?._id).toBe('mine');
      // The collection's count moved with the rows, as for single writes.
      expect((await (await t.call('GET', `/api/v1/data/${c}?limit=1`)).json()).total).toBe(3);
    });

    it('reads a JSON array element by element and reports bad elements by the line they start on', async () => {
      const c = fresh('arr');
      const body = '[\n  {"a": "x,]\\"y"},\n  42,\n  {"b": [1, {"c": 2}]},\n  {"_secret": 1}\n]\n';
      const { job } = await upload(c, body, { headers: { 'content-type': 'application/json' } });
      expect(job.status).toBe('succeeded');
      expect(job.counts).toEqual({ rows: 4, inserted: 2, failed: 2 });
      expect(job.errors).toEqual([
        { line: 3, code: 'invalid_body', message: 'Body must be a JSON object' },
        expect.objectContaining({ line: 5, code: 'invalid_body' }),
      ]);
      const docs = await all(c);
      expect(docs.map(({ a, b }) => ({ a, b }))).toEqual([
        { a: 'x,]"y', b: undefined },
        { a: undefined, b: [1, { c: 2 }] },
      ]);
    });

    it('fails a JSON body that is not an array or is cut off; two elements without a comma are one bad row', async () => {
      const json = { 'content-type': 'application/json' };
      const notArray = await upload(fresh('arr'), '\n{"a":1}', { headers: json });
      expect(notArray.job).toMatchObject({ status: 'failed', failure: { code: 'invalid_json' } });
      expect(notArray.job.failure?.message).toContain('Line 2');
      const cut = await upload(fresh('arr'), '[{"a":1},{"a":', { headers: json });
      expect(cut.job).toMatchObject({ status: 'failed', failure: { code: 'invalid_json' } });
      const glued = await upload(fresh('arr'), '[{"a":1}\n{"a":2}, {"a":3}]', { headers: json });
      expect(glued.job).toMatchObject({ status: 'succeeded', counts: { rows: 2, inserted: 1, failed: 1 } });
      expect(glued.job.errors).toEqual([expect.objectContaining({ line: 1, code: 'invalid_json' })]);
    });

    it('types CSV cells unless infer=false, and reports a row of the wrong width by its line', async () => {
      const csv =
        'name,qty,price,paid,note,code\nada,3,1.5,true,,007\n"lovelace, a",10,-2e3,false,"two\nlines",12\nbad,1\n';
      const typed = fresh('csv');
      const { job } = await upload(typed, csv, { headers: { 'content-type': 'text/csv' } });
      expect(job).toMatchObject({ status: 'succeeded', counts: { rows: 3, inserted: 2, failed: 1 } });
      expect(job.errors).toEqual([expect.objectContaining({ line: 5, code: 'invalid_row' })]);
      const docs = await all(typed);
      expect(docs.map(({ _id, _createdAt, _updatedAt, ...fields }) => fields)).toEqual([
        { name: 'ada', qty: 3, price: 1.5, paid: true, note: null, code: '007' },
        { name: 'lovelace, a', qty: 10, price: -2000, paid: false, note: 'two\nlines', code: 12 },
      ]);
      const text = fresh('csv');
      await upload(text, csv, { query: '?format=csv&infer=false' });
      expect((await all(text))[0]).toMatchObject({ qty: '3', paid: 'true', note: '' });
    });

    it('accepts gzip with Content-Encoding, and recognises it without', async () => {
      const gz = gzipSync(ndjson(50));
      const declared = fresh('gz');
      const a = await upload(declared, gz, { headers: { 'content-encoding': 'gzip' } });
      expect(a.job).toMatchObject({ status: 'succeeded', counts: { inserted: 50 } });
      const sniffed = fresh('gz');
      const b = await upload(sniffed, gz, { headers: { 'content-type': 'application/gzip' } });
      expect(b.job).toMatchObject({
        status: 'succeeded',
        input: { format: 'ndjson' },
        counts: { inserted: 50 },
      });
      expect((await all(sniffed)).map((d) => d.i)).toEqual([...Array(50).keys()]);
      const broken = await upload(fresh('gz'), Buffer.concat([gz.subarray(0, 30), Buffer.from('zzzz')]), {
        headers: { 'content-encoding': 'gzip' },
      });
      expect(broken.job.status).toBe('failed');
    });

    it('refuses an unknown Content-Encoding, a reserved collection and a bad query before reading', async () => {
      expect((await upload(fresh('x'), 'x', { headers: { 'content-encoding': 'br' } })).status).toBe(400);
      // Not "jobs": /api/v1/data/jobs/{id} is a path of its own, without POST (405).
      const reserved = await upload('sql', '{}');
      expect([reserved.status, (reserved.job as unknown as { code: string }).code]).toEqual([
        400,
        'reserved_collection',
      ]);
      expect((await upload(fresh('x'), '{}', { query: '?onError=maybe' })).status).toBe(400);
      // A misspelt option is refused rather than ignored: the import would otherwise run with the default.
      const misspelt = await upload(fresh('x'), '{}', { query: '?onerror=abort' });
      expect([
        misspelt.status,
        (misspelt.job as unknown as { details: { field: string } }).details.field,
      ]).toEqual([400, 'onerror']);
      expect((await upload(fresh('x'), '{}', { key: null })).status).toBe(401);
      const { apiKey } = await t.addKey({ scopes: ['data:read'] });
      expect((await upload(fresh('x'), '{}', { key: apiKey })).status).toBe(403);
    });

    it('skips rows whose _id is taken, by line, and goes on', async () => {
      const c = fresh('dup');
      await t.call('POST', `/api/v1/data/${c}`, { body: { _id: 'taken' } });
      const body = '{"_id":"a"}\n{"_id":"taken"}\nnot json\n{"_id":"b"}\n';
      const { job } = await upload(c, body);
      expect(job.counts).toEqual({ rows: 4, inserted: 2, failed: 2 });
      expect(job.errors.map(({ line, code }) => [line, code])).toEqual([
        [2, 'conflict'],
        [3, 'invalid_json'],
      ]);
    });
  });

  describe('onError=abort and resuming', () => {
    it('stops at the first bad row keeping the rows before it; a resume with the fixed file stores the rest once', async () => {
      const c = fresh('abort');
      const rows = ndjson(2500).split('\n');
      rows[1799] = '{"broken":';
      const { job } = await upload(c, rows.join('\n'), { query: '?onError=abort' });
      expect(job.status).toBe('failed');
      expect(job.failure).toMatchObject({ code: 'row_refused' });
      expect(job.failure?.message).toContain('line 1800');
      expect(job.errors).toEqual([expect.objectContaining({ line: 1800, code: 'invalid_json' })]);
      expect(job.counts).toMatchObject({ inserted: 1799, failed: 1 });
      expect((await all(c)).length).toBe(1799);

      const resumed = await upload(c, ndjson(2500), { query: `?onError=abort&resume=${job._id}` });
      expect(resumed.job).toMatchObject({
        _id: job._id,
        status: 'succeeded',
        counts: { rows: 2500, inserted: 2500, failed: 0 },
        failure: null,
      });
      // A resume is a new run: startedAt is when it began, so the job's timestamps time that run alone.
      expect(Date.parse(resumed.job.startedAt!)).toBeGreaterThanOrEqual(Date.parse(job.finishedAt!));
      const docs = await all(c);
      expect(docs.length).toBe(2500);
      expect(new Set(docs.map((d) => d.i)).size).toBe(2500);
      const again = await upload(c, ndjson(2500), { query: `?resume=${job._id}` });
      expect([again.status, (again.job as unknown as { code: string }).code]).toEqual([409, 'conflict']);
    });

    it('stops at a taken _id under abort, keeping the rows before it', async () => {
      const c = fresh('abortdup');
      await t.call('POST', `/api/v1/data/${c}`, { body: { _id: 'd5' } });
      const body = Array.from({ length: 10 }, (_, i) => JSON.stringify({ _id: `d${i}` })).join('\n');
      const { job } = await upload(c, body, { query: '?onError=abort' });
      expect(job).toMatchObject({ status: 'failed', counts: { inserted: 5, failed: 1 } });
      expect(job.errors).toEqual([expect.objectContaining({ line: 6, code: 'conflict' })]);
      expect((await all(c)).map((d) => d._id).sort()).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5']);
    });

    it('resumes an upload that broke off, without storing any row twice', async () => {
      const c = fresh('cut');
      const text = ndjson(5000, 0, (i) => ({ pad: 'x'.repeat(100 + (i % 7)) }));
      const cut = Buffer.from(text).subarray(0, Math.floor(text.length * 0.6));
      await new Promise<void>((resolve) => {
        const req = httpRequest(`${t.url}/api/v1/data/${c}/import`, {
          method: 'POST',
          headers: {
            'x-api-key': t.devKey,
            'content-type': 'application/x-ndjson',
            'transfer-encoding': 'chunked',
          },
        });
        req.on('error', () => resolve());
        req.write(cut, () => setTimeout(() => req.destroy(), 300));
        req.on('close', () => resolve());
      });
      const job = await waitFor(async () => {
        const list = await (await t.call('GET', '/api/v1/data/jobs?limit=100')).json();
        const found = (list.data as JobBody[]).find((j) => j.input.collection === c);
        return found && found.status !== 'running' ? found : undefined;
      });
      expect(job.failure?.code).toBe('upload_interrupted');
      const stored = (await all(c)).length;
      expect(stored).toBe(job.counts.inserted);
      expect(stored).toBeGreaterThan(0);
      expect(stored % 1000).toBe(0);

      const resumed = await upload(c, text, { query: `?resume=${job._id}` });
      expect(resumed.job).toMatchObject({
        status: 'succeeded',
        counts: { rows: 5000, inserted: 5000, failed: 0 },
      });
      const docs = await all(c);
      expect(docs.length).toBe(5000);
      expect(new Set(docs.map((d) => d.i)).size).toBe(5000);
    });
  });

  describe('jobs', () => {
    it('shows a job to its cluster only: key holders of another cluster and other users get 404', async () => {
      const { job } = await upload(fresh('iso'), ndjson(3));
      const own = await t.call('GET', `/api/v1/data/jobs/${job._id}`);
      expect(own.status).toBe(200);
      expect((await own.json())._id).toBe(job._id);
      const other = await t.call('GET', `/api/v1/data/jobs/${job._id}`, { key: t.other.apiKey });
      expect(other.status).toBe(404);
      const otherList = await (await t.call('GET', '/api/v1/data/jobs', { key: t.other.apiKey })).json();
      expect(otherList.data.map((j: JobBody) => j._id)).not.toContain(job._id);
      const stranger = await signUp(t);
      const headers = bearer(stranger.token);
      expect((await t.call('GET', `/api/jobs/${job._id}`, { key: null, headers })).status).toBe(404);
      expect((await t.call('POST', `/api/jobs/${job._id}/cancel`, { key: null, headers })).status).toBe(404);
      expect((await (await t.call('GET', '/api/jobs', { key: null, headers })).json()).total).toBe(0);
      expect((await t.call('GET', '/api/jobs')).status).toBe(401);
    });

    it("lists a signed-in user's jobs across their clusters, and cancels a running import", async () => {
      const user = await signUp(t);
      const headers = bearer(user.token);
      const c = fresh('cancel');
      // A body that arrives in parts: the first 2000 rows, then nothing until the job is cancelled.
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      async function* parts() {
        yield Buffer.from(ndjson(2000));
        await released;
        yield Buffer.from(ndjson(2000, 2000));
      }
      const answer = upload(c, Readable.from(parts()), { key: null, headers });
      const running = await waitFor(async () => {
        const list = await (await t.call('GET', '/api/jobs', { key: null, headers })).json();
        const job = list.data[0] as JobBody | undefined;
        return job && job.counts.inserted >= 1000 ? job : undefined;
      });
      expect(running.status).toBe('running');
      const cancel = await t.call('POST', `/api/jobs/${running._id}/cancel`, { key: null, headers });
      expect(cancel.status).toBe(200);
      expect((await cancel.json()).status).toBe('cancelled');
      release();
      const { status, job } = await answer;
      expect(status).toBe(202);
      expect(job).toMatchObject({ _id: running._id, status: 'cancelled', failure: { code: 'cancelled' } });
      const stored = (await t.call('GET', `/api/v1/data/${c}?limit=1`, { key: null, headers })).json();
      expect((await stored).total).toBeLessThan(4000);
      const again = await t.call('POST', `/api/jobs/${running._id}/cancel`, { key: null, headers });
      expect(again.status).toBe(409);
      const got = await (await t.call('GET', `/api/jobs/${running._id}`, { key: null, headers })).json();
      expect(got.status).toBe('cancelled');
    });
  });

  describe('a large import', () => {
    it('stores 100,000 rows (about 40 MB) while they arrive, never holding the body', async () => {
      const rows = 100_000;
      const perPart = 1000;
      const pad = 'p'.repeat(380);
      const c = fresh('large');
      let inserted = 0;
      // Before sending part k, the server must have stored all but the last 40 parts (16 MB, more than every
      // buffer between the two ends holds): a server that read the whole body before storing would never get there.
      async function* body() {
        for (let part = 0; part * perPart < rows; part++) {
          const needed = (part - 40) * perPart;
          if (inserted < needed) {
            inserted = await waitFor(async () => {
              const list = await (await t.call('GET', '/api/v1/data/jobs?limit=5')).json();
              const job = (list.data as JobBody[]).find((j) => j.input.collection === c);
              return job && job.counts.inserted >= needed ? job.counts.inserted : undefined;
            });
          }
          let text = '';
          for (let i = part * perPart; i < (part + 1) * perPart; i++) text += `{"i":${i},"pad":"${pad}"}\n`;
          yield Buffer.from(text);
        }
      }
      const { job } = await upload(c, Readable.from(body()));
      expect(job).toMatchObject({ status: 'succeeded', counts: { rows, inserted: rows, failed: 0 } });
      expect(job.bytes).toBeGreaterThan(40_000_000);
      expect((await (await t.call('GET', `/api/v1/data/${c}?limit=1`)).json()).total).toBe(rows);
    }, 180_000);
  });
});

/** Polls `probe` until it returns something. */
async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
