import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, createCluster, userOn } from './cluster-helpers.js';
import { availableEngines, type SignedUp, startTestServer, type TestServer } from './helpers.js';
import { type Moto, startMoto } from './moto/server.js';

/** Moto takes any credentials; the server and this test read them from the usual AWS variables. */
const AWS_ENV = { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1' };

/** moto runs from a virtual environment: without python3 and venv (never in CI, .ci/run installs them) this skips. */
const hasPython = spawnSync('python3', ['-c', 'import venv, ensurepip']).status === 0;

let moto: Moto | null = null;
let saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  if (!hasPython) return;
  moto = await startMoto();
  saved = Object.fromEntries(Object.keys(AWS_ENV).map((name) => [name, process.env[name]]));
  Object.assign(process.env, AWS_ENV);
}, 600_000);
afterAll(async () => {
  await moto?.stop();
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

describe.skipIf(!hasPython).each(availableEngines())(
  'backups in S3-compatible storage (moto) on %s',
  (engine) => {
    let t: TestServer;
    let owner: SignedUp;
    let home: string;
    let other: string;
    let s3: S3Client;
    const bucket = `backups-${engine}`;

    const as = (method: string, path: string, body?: unknown) => asUser(t, owner, method, path, body);
    const objects = async () =>
      ((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key);
    const backUp = async (clusterId: string) => {
      const res = await as('POST', '/api/backups', { clusterId });
      expect(res.status, await res.clone().text()).toBe(202);
      return (await res.json()) as { _id: string; status: string; checksum: string; sizeBytes: number };
    };
    const restore = async (id: string, targetClusterId: string) => {
      const res = await as('POST', `/api/backups/${id}/restore`, { targetClusterId });
      expect(res.status, await res.clone().text()).toBe(202);
      await t.server.app.backupJobs.idle();
      const job = (await res.json()) as { _id: string };
      return (await (await as('GET', `/api/jobs/${job._id}`)).json()) as {
        status: string;
        failure: { code: string } | null;
      };
    };

    beforeAll(async () => {
      if (!moto) throw new Error('moto did not start');
      s3 = new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true });
      await s3.send(new CreateBucketCommand({ Bucket: bucket }));
      t = await startTestServer({
        engine,
        config: { backupUrl: `s3://${bucket}/nightly/`, backupS3Endpoint: moto.endpoint },
      });
      owner = await userOn(t, 'team');
      home = (await createCluster(t, owner, 's3-home'))._id;
      other = (await createCluster(t, owner, 's3-other'))._id;
      const made = await as('POST', '/api/keys', {
        name: 'k',
        scopes: ['data:read', 'data:write'],
        clusterId: home,
      });
      const key = ((await made.json()) as { secret: string }).secret;
      const operations = Array.from({ length: 1200 }, (_, i) => ({
        op: 'insert',
        collection: 'orders',
        data: { _id: `o${String(i).padStart(5, '0')}`, n: i },
      }));
      const written = await t.call('POST', '/api/v1/data/batch', {
        key,
        body: { operations: operations.slice(0, 600) },
      });
      expect(written.status).toBe(200);
      await t.call('POST', '/api/v1/data/batch', { key, body: { operations: operations.slice(600) } });
    }, 120_000);
    afterAll(async () => {
      await t?.stop();
      s3?.destroy();
    }, 30_000);

    it('backs up to an object under the prefix, lists, downloads, restores and deletes it', async () => {
      const backup = await backUp(home);
      expect(backup).toMatchObject({ status: 'succeeded' });
      expect(await objects()).toContain(`nightly/${backup._id}.ndjson.gz`);
      const stored = await s3.send(
        new GetObjectCommand({ Bucket: bucket, Key: `nightly/${backup._id}.ndjson.gz` }),
      );
      const bytes = Buffer.from(await stored.Body!.transformToByteArray());
      expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(backup.checksum);

      const listed = (await (await as('GET', `/api/backups?clusterId=${home}`)).json()) as {
        data: { _id: string }[];
      };
      expect(listed.data.map((b) => b._id)).toContain(backup._id);
      const download = await as('GET', `/api/backups/${backup._id}/download`);
      expect(download.status).toBe(200);
      const downloaded = Buffer.from(await download.arrayBuffer());
      expect(downloaded.equals(bytes)).toBe(true);
      const manifest = JSON.parse(gunzipSync(downloaded).toString('utf8').trimEnd().split('\n').at(-1)!);
      expect(manifest).toMatchObject({ type: 'manifest', documents: 1200 });

      expect(await restore(backup._id, other)).toMatchObject({ status: 'succeeded', failure: null });
      const again = await backUp(other);
      const copy = await as('GET', `/api/backups/${again._id}/download`);
      const lines = gunzipSync(Buffer.from(await copy.arrayBuffer()))
        .toString('utf8')
        .trimEnd()
        .split('\n');
      expect(lines.slice(1, -1)).toEqual(
        gunzipSync(bytes).toString('utf8').trimEnd().split('\n').slice(1, -1),
      );

      expect((await as('DELETE', `/api/backups/${backup._id}`)).status).toBe(200);
      expect(await objects()).not.toContain(`nightly/${backup._id}.ndjson.gz`);
    });

    // backups.test.ts shows on disk that a failed restore leaves the target as it was; here, that S3 reads find it.
    it('fails a restore of an altered object with invalid_archive', async () => {
      const backup = await backUp(home);
      const key = `nightly/${backup._id}.ndjson.gz`;
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.from('not gzip') }));
      expect(await restore(backup._id, other)).toMatchObject({
        status: 'failed',
        failure: { code: 'invalid_archive' },
      });
    });

    it('answers 404 for the download of an archive missing from the bucket', async () => {
      const backup = await backUp(home);
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: `nightly/${backup._id}.ndjson.gz` }));
      expect((await as('GET', `/api/backups/${backup._id}/download`)).status).toBe(404);
      expect(await restore(backup._id, other)).toMatchObject({ failure: { code: 'invalid_archive' } });
    });
  },
);
