import { gunzipSync } from 'node:zlib';
import { createDataPlatformMocks } from '@dataplatform/mocks';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DataPlatform, NotFoundError } from '../src/index.js';

const baseUrl = 'http://localhost:5000';
const mocks = createDataPlatformMocks({ baseUrl });
const server = setupServer(...mocks.handlers);
const seen: string[] = [];

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    seen.push(`${request.method} ${url.pathname}${url.search}`);
  });
});
afterEach(() => {
  mocks.store.reset();
  seen.length = 0;
});
afterAll(() => server.close());

async function signedIn(): Promise<DataPlatform> {
  const client = new DataPlatform({ baseUrl, maxRetries: 0 });
  await client.auth.signUp(
    {
      email: `b-${Math.random().toString(36).slice(2)}@example.com`,
      password: 'a long passphrase',
      name: 'B',
    },
    { storeToken: true },
  );
  return client;
}

describe('client.backups', () => {
  it('creates, lists, downloads, restores and deletes a backup on the routes of the contract', async () => {
    const client = await signedIn();
    mocks.store.seed('orders', [{ _id: 'o1', total: 5 }]);
    const backup = await client.backups.create();
    expect(backup).toMatchObject({ status: 'succeeded' });
    expect((await client.backups.list()).data.map((b) => b._id)).toContain(backup._id);
    expect((await client.backups.get(backup._id))._id).toBe(backup._id);

    const archive = await client.backups.download(backup._id);
    expect(archive.headers.get('content-type')).toContain('application/gzip');
    const lines = gunzipSync(Buffer.from(await archive.arrayBuffer()))
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toContainEqual(
      expect.objectContaining({ type: 'document', collection: 'orders', _id: 'o1' }),
    );

    const job = await client.backups.restore(backup._id);
    expect(job).toMatchObject({ kind: 'restore', status: 'succeeded' });
    expect(await client.backups.delete(backup._id)).toEqual({ _id: backup._id, deleted: true });
    await expect(client.backups.get(backup._id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.backups.download(backup._id)).rejects.toBeInstanceOf(NotFoundError);
    expect(seen.filter((call) => call.includes('/api/backups'))).toEqual([
      'POST /api/backups',
      'GET /api/backups',
      `GET /api/backups/${backup._id}`,
      `GET /api/backups/${backup._id}/download`,
      `POST /api/backups/${backup._id}/restore`,
      `DELETE /api/backups/${backup._id}`,
      `GET /api/backups/${backup._id}`,
      `GET /api/backups/${backup._id}/download`,
    ]);
  });

  it('reads, sets and removes the schedule', async () => {
    const client = await signedIn();
    expect(await client.backups.getSchedule()).toMatchObject({ cron: null, retain: null });
    expect(await client.backups.setSchedule({ cron: '0 3 * * *', retain: 7 })).toMatchObject({
      cron: '0 3 * * *',
      retain: 7,
    });
    expect(await client.backups.getSchedule()).toMatchObject({ cron: '0 3 * * *', retain: 7 });
    expect(await client.backups.setSchedule({ cron: null, retain: 1 })).toMatchObject({ cron: null });
    expect(seen.filter((call) => call.includes('/api/backups'))).toEqual([
      'GET /api/backups/schedule',
      'PUT /api/backups/schedule',
      'GET /api/backups/schedule',
      'PUT /api/backups/schedule',
    ]);
  });
});
