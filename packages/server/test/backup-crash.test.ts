import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crashServer } from './crash-server.js';
import { availableEngines } from './helpers.js';

/** Enough documents that a backup and a restore run in the background (over 10,000) for a while. */
const DOCUMENTS = 40_000;
const PAYLOAD = 'x'.repeat(300);

interface Job {
  status: string;
  progress: { done: number; total: number | null } | null;
  failure: { code: string } | null;
}

describe.each(availableEngines())('backups and restores across SIGKILL on %s', (engine) => {
  it('writes a killed backup again after the restart, and a killed restore leaves the target whole', async () => {
    const server = await crashServer(engine, 'dataplatform-backup-crash-');
    const { call, apiKey, dataDir } = server;
    try {
      const data = (method: string, path: string, body?: unknown) =>
        fetch(`${server.url}/api/v1/data${path}`, {
          method,
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const total = async () =>
        ((await (await data('GET', '/crash?limit=1')).json()) as { total: number }).total;
      /** Waits until the job has saved progress, then kills the server while it runs. */
      const killDuring = async (jobId: string) => {
        for (;;) {
          const job = (await call('GET', `/api/jobs/${jobId}`)).body as unknown as Job;
          expect(job.status, 'the job ended before the kill: make it larger').toBe('running');
          if ((job.progress?.done ?? 0) > 0 || job.progress?.total) break;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        await server.kill();
        await server.restart();
      };
      const ended = async (jobId: string) => (await server.ended(jobId)) as unknown as Job;

      for (let from = 0; from < DOCUMENTS; from += 1000) {
        const operations = Array.from({ length: 1000 }, (_, i) => ({
          op: 'insert',
          collection: 'crash',
          data: { _id: `d${String(from + i).padStart(6, '0')}`, payload: PAYLOAD },
        }));
        expect((await data('POST', '/batch', { operations })).status).toBe(200);
      }

      // A backup killed while it writes: written again whole after the restart, no partial archive left.
      const started = await call('POST', '/api/backups', {});
      expect(started.status).toBe(202);
      const backupId = started.body._id as string;
      const backupJob = backupId.replace(/^bkp_/, 'job_');
      await killDuring(backupJob);
      expect(await ended(backupJob)).toMatchObject({ status: 'succeeded' });
      const backup = (await call('GET', `/api/backups/${backupId}`)).body;
      expect(backup).toMatchObject({ status: 'succeeded', documentCount: DOCUMENTS });
      expect(readdirSync(join(dataDir, 'backups')).filter((f) => f.endsWith('.partial'))).toEqual([]);

      // A restore killed during its swap: the target is as it was or wholly restored, never in between; the
      // restart takes the restore up and it ends restored.
      const marker = await data('POST', '/crash', { _id: 'marker', payload: 'after the backup' });
      expect(marker.status).toBe(201);
      const restore = await call('POST', `/api/backups/${backupId}/restore`, {});
      expect(restore.status).toBe(202);
      const restoreJob = restore.body._id as string;
      await killDuring(restoreJob);
      const [count, markerAfterKill] = [await total(), (await data('GET', '/crash/marker')).status];
      expect([
        [DOCUMENTS + 1, 200],
        [DOCUMENTS, 404],
      ]).toContainEqual([count, markerAfterKill]);
      expect(await ended(restoreJob)).toMatchObject({ status: 'succeeded' });
      expect(await total()).toBe(DOCUMENTS);
      expect((await data('GET', '/crash/marker')).status).toBe(404);
      expect(existsSync(join(dataDir, 'backups', `${backupId}.ndjson.gz`))).toBe(true);
    } finally {
      await server.close();
    }
  }, 300_000);
});
