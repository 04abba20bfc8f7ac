import { Job, JobList } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { useMockApi } from './harness.js';

const { mocks, call } = useMockApi();

let collections = 0;
const fresh = () => `csv${++collections}`;

const upload = (collection: string, rawBody: string, query = '', headers: Record<string, string> = {}) =>
  call('POST', `/api/v1/data/${collection}/import${query}`, {
    rawBody,
    headers: { 'content-type': 'application/x-ndjson', ...headers },
  });

describe('POST /api/v1/data/{collection}/import', () => {
  it('stores NDJSON rows and answers 202 with the finished job, reporting bad rows by line', async () => {
    mocks.store.seed('orders', [{ _id: 'taken' }]);
    const result = await upload('orders', '{"n":1}\n\nnot json\n{"_id":"taken"}\n[1]\n{"n":2}\n');
    expect(result.status).toBe(202);
    expect(Job.safeParse(result.body).success).toBe(true);
    expect(result.body).toMatchObject({
      status: 'succeeded',
      input: { collection: 'orders', format: 'ndjson', onError: 'skip' },
      counts: { rows: 5, inserted: 2, failed: 3 },
    });
    expect(result.body.errors.map((e: { line: number; code: string }) => [e.line, e.code])).toEqual([
      [3, 'invalid_json'],
      [4, 'conflict'],
      [5, 'invalid_body'],
    ]);
    expect(mocks.store.collection('orders')).toHaveLength(3);
  });

  it('reads CSV with typed cells, or text with infer=false, and gzip', async () => {
    const csv = 'name,qty,ok\n"a, b",3,true\nc,,false\n';
    await upload('typed', csv, '', { 'content-type': 'text/csv' });
    expect(mocks.store.collection('typed').map(({ name, qty, ok }) => ({ name, qty, ok }))).toEqual([
      { name: 'a, b', qty: 3, ok: true },
      { name: 'c', qty: null, ok: false },
    ]);
    await upload('text', csv, '?format=csv&infer=false');
    expect(mocks.store.collection('text')[0]).toMatchObject({ qty: '3', ok: 'true' });
    const gz = new Uint8Array(
      await new Response(
        new Blob(['{"z":1}\n']).stream().pipeThrough(new CompressionStream('gzip')),
      ).arrayBuffer(),
    );
    const response = await fetch('http://localhost:5000/api/v1/data/gz/import', {
      method: 'POST',
      headers: { 'x-api-key': mocks.apiKey, 'content-encoding': 'gzip' },
      body: gz,
    });
    expect(response.status).toBe(202);
    expect(mocks.store.collection('gz')).toMatchObject([{ z: 1 }]);
  });

  it.each([
    {
      csv: 'a,b\r\n1,2\n3\r\n\r\n""\r\n',
      rows: 1,
      why: 'after \\r\\n breaks, \\n is part of a cell; blank records pass',
    },
    {
      csv: '\n\na,b\n"x\ny",1\nshort',
      rows: 2,
      why: 'blank lines before the header; quotes hold line breaks',
    },
    { csv: 'a,b\nx"y",1\n', failure: 'invalid_csv', why: 'a quote inside an unquoted cell' },
    { csv: 'a,b\n"x"y,1\n', failure: 'invalid_csv', why: 'a closing quote followed by more of the cell' },
  ])('counts CSV rows as the server does: $why', async ({ csv, rows, failure }) => {
    const { body } = await upload(fresh(), csv, '?format=csv');
    if (failure) expect(body).toMatchObject({ status: 'failed', failure: { code: failure } });
    else expect(body).toMatchObject({ status: 'succeeded', counts: { rows } });
  });

  it('stops at the first bad row with onError=abort, and a resume stores the rest once', async () => {
    const first = await upload('abort', '{"n":1}\n{"n":\n{"n":3}\n', '?onError=abort');
    expect(first.body).toMatchObject({ status: 'failed', failure: { code: 'row_refused' } });
    expect(mocks.store.collection('abort')).toHaveLength(1);
    const resumed = await upload('abort', '{"n":1}\n{"n":2}\n{"n":3}\n', `?resume=${first.body._id}`);
    expect(resumed.body).toMatchObject({ _id: first.body._id, status: 'succeeded', counts: { inserted: 3 } });
    // A resume is a new run, and startedAt says when it began.
    expect(Date.parse(resumed.body.startedAt)).toBeGreaterThanOrEqual(Date.parse(first.body.finishedAt));
    expect(mocks.store.collection('abort').map((d) => d.n)).toEqual([1, 2, 3]);
    const again = await upload('abort', '{}', `?resume=${first.body._id}`);
    expect([again.status, again.body.code]).toEqual([409, 'conflict']);
    expect((await upload('abort', '{}', '?resume=job_nope')).status).toBe(404);
  });

  it('needs data:write', async () => {
    const key = mocks.addKey({ scopes: ['data:read'] });
    const result = await call('POST', '/api/v1/data/x/import', { key, rawBody: '{}' });
    expect(result.status).toBe(403);
  });
});

describe('jobs', () => {
  it('lists and gets jobs for key holders; /api/jobs needs a session and shows the user their own', async () => {
    const { body: job } = await upload('orders', '{"n":1}\n');
    const list = await call('GET', '/api/v1/data/jobs');
    expect(JobList.safeParse(list.body).success).toBe(true);
    expect(list.body.data.map((j: { _id: string }) => j._id)).toEqual([job._id]);
    expect((await call('GET', `/api/v1/data/jobs/${job._id}`)).body).toEqual(job);
    expect((await call('GET', '/api/v1/data/jobs/job_nope')).status).toBe(404);
    expect((await call('GET', '/api/jobs')).status).toBe(401);

    const signUp = await call('POST', '/api/auth/signup', {
      key: null,
      json: { email: 'ada@example.com', password: 'correct horse battery', name: 'Ada' },
    });
    const auth = { key: null, headers: { authorization: `Bearer ${signUp.body.token}` } };
    expect((await call('GET', '/api/jobs', auth)).body.total).toBe(0);
    expect((await call('GET', `/api/jobs/${job._id}`, auth)).status).toBe(404);
    const own = await call('POST', '/api/v1/data/mine/import', { ...auth, rawBody: '{"a":1}' });
    expect((await call('GET', '/api/jobs', auth)).body.data.map((j: { _id: string }) => j._id)).toEqual([
      own.body._id,
    ]);
    const cancel = await call('POST', `/api/jobs/${own.body._id}/cancel`, auth);
    expect([cancel.status, cancel.body.code]).toEqual([409, 'conflict']);
  });

  it('refuses to resume a job that is still running, and names an empty body NDJSON, as the server does', async () => {
    const running = mocks.store.seedJob({
      input: { collection: 'seeded', format: 'ndjson', onError: 'skip', infer: true },
    });
    const resumed = await upload('seeded', '{}', `?resume=${running._id}`);
    expect([resumed.status, resumed.body.code]).toEqual([409, 'conflict']);
    const empty = await upload(fresh(), '', '', { 'content-type': 'application/octet-stream' });
    expect(empty.body.input.format).toBe('ndjson');
  });
});
