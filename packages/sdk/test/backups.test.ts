import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../src/index.js';
import { useMockedApi } from './mocked-api.js';

const { mocks, seen, signedIn } = useMockedApi();

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
