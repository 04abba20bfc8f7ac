import { createDataPlatformMocks } from '@dataplatform/mocks';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, DataPlatform, NotFoundError } from '../src/index.js';

const mocks = createDataPlatformMocks();
const server = setupServer(...mocks.handlers);
const client = new DataPlatform({ apiKey: mocks.apiKey });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mocks.store.reset());
afterAll(() => server.close());

async function* lines(count: number) {
  for (let i = 0; i < count; i++) yield new TextEncoder().encode(`{"i":${i}}\n`);
}

describe('client.data.import', () => {
  it('streams an async iterable of bytes and resolves with the finished job', async () => {
    const job = await client.data.import('orders', lines(25), { format: 'ndjson' });
    expect(job).toMatchObject({ status: 'succeeded', counts: { rows: 25, inserted: 25, failed: 0 } });
    expect(mocks.store.collection('orders')).toHaveLength(25);
  });

  it('sends CSV with infer and onError, and resumes an import that stopped', async () => {
    const csv = 'n,ok\n1,true\nbad\n3,false\n';
    const failed = await client.data.import('rows', csv, { format: 'csv', onError: 'abort', infer: false });
    expect(failed).toMatchObject({ status: 'failed', errors: [{ line: 3, code: 'invalid_row' }] });
    expect(mocks.store.collection('rows')).toMatchObject([{ n: '1', ok: 'true' }]);
    const fixed = 'n,ok\n1,true\n2,true\n3,false\n';
    const resumed = await client.data.import('rows', fixed, {
      format: 'csv',
      resume: failed._id,
      infer: false,
    });
    expect(resumed).toMatchObject({ _id: failed._id, status: 'succeeded', counts: { inserted: 3 } });
    await expect(client.data.import('rows', fixed, { resume: failed._id })).rejects.toBeInstanceOf(
      ConflictError,
    );
  });

  it('says gzip when asked', async () => {
    const gz = new Uint8Array(
      await new Response(
        new Blob(['{"z":1}\n']).stream().pipeThrough(new CompressionStream('gzip')),
      ).arrayBuffer(),
    );
    expect((await client.data.import('gz', gz, { gzip: true })).counts.inserted).toBe(1);
  });
});

describe('client.jobs', () => {
  it('lists and gets jobs with a key, and waits for a job to finish', async () => {
    const job = await client.data.import('orders', '{"a":1}\n');
    expect((await client.jobs.list()).data.map((j) => j._id)).toEqual([job._id]);
    expect(await client.jobs.get(job._id)).toEqual(job);
    expect(await client.jobs.wait(job._id, { intervalMs: 1 })).toEqual(job);
    await expect(client.jobs.get('job_nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it("uses /api/jobs with a session token, and cancels a user's running job", async () => {
    const session = await new DataPlatform().auth.signUp({
      email: 'ada@example.com',
      password: 'correct horse battery',
      name: 'Ada',
    });
    const user = new DataPlatform({ token: session.token, apiKey: '' });
    const running = mocks.store.seedJob({}, session.user._id);
    expect((await user.jobs.list()).data.map((j) => j._id)).toEqual([running._id]);
    const seen: string[] = [];
    const watching = (async () => {
      for await (const job of user.jobs.watch(running._id, { intervalMs: 5 })) seen.push(job.status);
    })();
    const cancelled = await user.jobs.cancel(running._id);
    expect(cancelled.status).toBe('cancelled');
    await watching;
    expect(seen.at(-1)).toBe('cancelled');
    await expect(user.jobs.cancel(running._id)).rejects.toBeInstanceOf(ConflictError);
  });
});
