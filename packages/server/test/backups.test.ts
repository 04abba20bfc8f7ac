import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, expect, it } from 'vitest';
import { asUser, createCluster, memberAs, userOn } from './cluster-helpers.js';
import { forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';

interface BackupAnswer {
  _id: string;
  clusterId: string;
  status: string;
  documentCount: number;
  sizeBytes: number;
  checksum: string | null;
  completedAt: string | null;
}

interface JobAnswer {
  _id: string;
  kind: string;
  status: string;
  input: Record<string, unknown>;
  progress: { done: number; total: number | null };
  result: { collections: number; documents: number; indexes: number } | null;
  failure: { code: string; message: string } | null;
}

type Line = Record<string, unknown>;

forEachEngine((server) => {
  let t: TestServer;
  let owner: SignedUp;
  let home: string;
  let other: string;
  let homeKey: string;

  const as = (method: string, path: string, body?: unknown, who = owner) =>
    asUser(t, who, method, path, body);
  const write = async (operations: unknown[], key = homeKey) => {
    const res = await t.call('POST', '/api/v1/data/batch', { key, body: { operations } });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const inserts = (collection: string, from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({
      op: 'insert',
      collection,
      data: { _id: `d${String(from + i).padStart(6, '0')}`, n: from + i, tag: `t${(from + i) % 7}` },
    }));

  /** Backs up the cluster and waits for the archive. */
  const backUp = async (clusterId: string): Promise<BackupAnswer> => {
    const started = await as('POST', '/api/backups', { clusterId });
    expect(started.status, await started.clone().text()).toBe(202);
    const answer = (await started.json()) as BackupAnswer;
    expect(answer).toMatchObject({ clusterId });
    await t.server.app.backupJobs.idle();
    return (await (await as('GET', `/api/backups/${answer._id}`)).json()) as BackupAnswer;
  };
  /** The archive's lines, downloaded. */
  const linesOf = async (id: string): Promise<Line[]> => {
    const res = await as('GET', `/api/backups/${id}/download`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/gzip');
    const bytes = Buffer.from(await res.arrayBuffer());
    const backup = (await (await as('GET', `/api/backups/${id}`)).json()) as BackupAnswer;
    expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(backup.checksum);
    expect(bytes.length).toBe(backup.sizeBytes);
    return gunzipSync(bytes)
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
  };
  /** What a cluster holds, as its backup's lines without the header and manifest (their ids and times differ). */
  const contentOf = async (clusterId: string) => (await linesOf((await backUp(clusterId))._id)).slice(1, -1);
  const restore = async (id: string, targetClusterId?: string) => {
    const started = await as(
      'POST',
      `/api/backups/${id}/restore`,
      targetClusterId ? { targetClusterId } : {},
    );
    expect(started.status, await started.clone().text()).toBe(202);
    await t.server.app.backupJobs.idle();
    return (await (
      await as('GET', `/api/jobs/${((await started.json()) as JobAnswer)._id}`)
    ).json()) as JobAnswer;
  };

  beforeAll(async () => {
    t = server();
    owner = await userOn(t, 'team');
    home = (await createCluster(t, owner, 'backed-up'))._id;
    other = (await createCluster(t, owner, 'restored-into'))._id;
    const made = await as('POST', '/api/keys', {
      name: 'data',
      scopes: ['data:read', 'data:write'],
      clusterId: home,
    });
    expect(made.status, await made.clone().text()).toBe(201);
    homeKey = ((await made.json()) as { secret: string }).secret;
    for (let from = 0; from < 1200; from += 400) await write(inserts('orders', from, 400));
    await write([
      { op: 'insert', collection: 'people', data: { _id: 'ada', name: 'Ada', email: 'ada@example.com' } },
      {
        op: 'insert',
        collection: 'people',
        data: { _id: 'bob', name: 'Bob', nested: { a: [1, 2, { b: null }] } },
      },
    ]);
    const validator = await as('PUT', `/api/schema/collections/people/validator?clusterId=${home}`, {
      schema: { type: 'object', required: ['name'] },
      level: 'strict',
    });
    expect(validator.status).toBe(200);
    for (const body of [
      { name: 'by_n', fields: [{ path: 'n', order: 'asc' }], unique: true },
      { fields: [{ path: 'tag', order: 'desc' }] },
    ]) {
      const res = await as('POST', `/api/schema/collections/orders/indexes?clusterId=${home}`, body);
      expect([201, 202], await res.clone().text()).toContain(res.status);
    }
    await t.server.app.schemaJobs.idle();
  }, 120_000);

  it('answers a small backup written, and a large one queued and written in the background', async () => {
    const small = (await (await as('POST', '/api/backups', { clusterId: other })).json()) as BackupAnswer;
    expect(small).toMatchObject({ status: 'succeeded', documentCount: 0 });
    await write(inserts('bulk', 0, 1000));
    for (let from = 1000; from < 10_000; from += 1000) await write(inserts('bulk', from, 1000));
    const large = (await (await as('POST', '/api/backups', { clusterId: home })).json()) as BackupAnswer;
    expect(large.status).toBe('queued');
    await t.server.app.backupJobs.idle();
    const written = (await (await as('GET', `/api/backups/${large._id}`)).json()) as BackupAnswer;
    expect(written).toMatchObject({ status: 'succeeded', documentCount: 11_202 });
    const bulk = await as('DELETE', `/api/schema/collections/bulk?clusterId=${home}`);
    expect(bulk.status).toBe(202);
    await t.server.app.schemaJobs.idle();
  }, 120_000);

  it('writes an archive with a manifest that counts its documents, listed as a job and a backup', async () => {
    const backup = await backUp(home);
    expect(backup).toMatchObject({ status: 'succeeded', documentCount: 1202 });
    expect(backup.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(backup.completedAt).not.toBeNull();
    const lines = await linesOf(backup._id);
    expect(lines[0]).toMatchObject({ format: 'dataplatform-backup', version: 1, clusterId: home });
    const manifest = lines.at(-1)!;
    expect(manifest).toMatchObject({
      type: 'manifest',
      documents: 1202,
      collections: { orders: 1200, people: 2 },
    });
    expect(lines.filter((line) => line.type === 'document')).toHaveLength(1202);
    const people = lines.find((line) => line.type === 'collection' && line.name === 'people')!;
    expect(people.validator).toMatchObject({
      schema: { type: 'object', required: ['name'] },
      level: 'strict',
    });
    const orders = lines.find((line) => line.type === 'collection' && line.name === 'orders')!;
    expect((orders.indexes as { name: string }[]).map((index) => index.name).sort()).toEqual([
      'by_n',
      'tag_desc',
    ]);
    // The lines as written (a document's data is its stored JSON text, jsonb's spacing on PostgreSQL).
    const download = await as('GET', `/api/backups/${backup._id}/download`);
    const raw = gunzipSync(Buffer.from(await download.arrayBuffer())).toString('utf8');
    const text = raw.slice(0, raw.lastIndexOf('\n', raw.length - 2) + 1);
    expect(manifest.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect(JSON.stringify(lines)).not.toMatch(/dp_(live|test)_|secret/i);

    const list = (await (await as('GET', `/api/backups?clusterId=${home}`)).json()) as {
      data: BackupAnswer[];
    };
    expect(list.data.map((b) => b._id)).toContain(backup._id);
    const jobs = (await (await as('GET', `/api/jobs?limit=1000`)).json()) as { data: JobAnswer[] };
    expect(jobs.data.find((job) => job.kind === 'backup' && job.input.backupId === backup._id)).toMatchObject(
      {
        status: 'succeeded',
        progress: { done: 1202, total: 1202 },
      },
    );
  });

  it('restores into another cluster every document, validator and index, equal to the source', async () => {
    const source = await contentOf(home);
    const backup = await backUp(home);
    const job = await restore(backup._id, other);
    expect(job).toMatchObject({
      kind: 'restore',
      status: 'succeeded',
      failure: null,
      result: { collections: 2, documents: 1202, indexes: 2 },
    });
    expect(await contentOf(other)).toEqual(source);
    const listed = (await (await as('GET', `/api/schema/collections?clusterId=${other}`)).json()) as {
      data: { name: string; documentCount: number; indexes: { name: string; status: string }[] }[];
    };
    expect(listed.data.find((c) => c.name === 'orders')).toMatchObject({ documentCount: 1200 });
    const orders = listed.data.find((c) => c.name === 'orders')!;
    expect(orders.indexes.map((index) => [index.name, index.status]).sort()).toEqual([
      ['by_n', 'ready'],
      ['tag_desc', 'ready'],
    ]);
  });

  it('restores into the same cluster: later changes to its collections are undone', async () => {
    const backup = await backUp(home);
    const before = await contentOf(home);
    await write([
      { op: 'insert', collection: 'orders', data: { _id: 'late', n: -1 } },
      { op: 'delete', collection: 'people', id: 'ada' },
      { op: 'update', collection: 'people', id: 'bob', data: { name: 'Robert' } },
    ]);
    await as('DELETE', `/api/schema/collections/orders/indexes/tag_desc?clusterId=${home}`);
    const job = await restore(backup._id);
    expect(job.status, JSON.stringify(job.failure)).toBe('succeeded');
    expect(await contentOf(home)).toEqual(before);
  });

  it('holds the documents of one instant while writes go on', async () => {
    // Each batch writes one document to each of two collections in one transaction.
    let writing = true;
    let n = 0;
    const writer = (async () => {
      while (writing) {
        await write([
          { op: 'insert', collection: 'pair_a', data: { _id: `p${n}` } },
          { op: 'insert', collection: 'pair_b', data: { _id: `p${n}` } },
        ]);
        n++;
      }
    })();
    await write(inserts('pair_a', 100_000, 1));
    await write(inserts('pair_b', 100_000, 1));
    const backups: BackupAnswer[] = [];
    for (let i = 0; i < 3; i++) backups.push(await backUp(home));
    writing = false;
    await writer;
    for (const backup of backups) {
      const lines = await linesOf(backup._id);
      const ids = (name: string) =>
        lines.filter((line) => line.type === 'document' && line.collection === name).map((line) => line._id);
      expect(ids('pair_a')).toEqual(ids('pair_b'));
      const manifest = lines.at(-1)! as { documents: number; collections: Record<string, number> };
      expect(manifest.documents).toBe(lines.filter((line) => line.type === 'document').length);
      expect(backup.documentCount).toBe(manifest.documents);
    }
  });

  it('fails a restore of an altered or truncated archive with nothing changed', async () => {
    const backup = await backUp(home);
    const file = join(t.dataDir, 'backups', `${backup._id}.ndjson.gz`);
    const original = readFileSync(file);
    const before = await contentOf(other);

    // Altered: a document changed, the file's checksum no longer matches.
    const text = gunzipSync(original).toString('utf8').replace('"n":5,', '"n":500000,');
    writeFileSync(file, gzipSync(text));
    const altered = await restore(backup._id, other);
    expect(altered).toMatchObject({ status: 'failed', failure: { code: 'invalid_archive' } });

    // Truncated.
    writeFileSync(file, original.subarray(0, Math.floor(original.length / 2)));
    const truncated = await restore(backup._id, other);
    expect(truncated).toMatchObject({ status: 'failed', failure: { code: 'invalid_archive' } });
    expect(await contentOf(other)).toEqual(before);
    writeFileSync(file, original);
  });

  it('lets a viewer list but not back up or restore, a developer do both; another account sees nothing', async () => {
    const backup = await backUp(home);
    const viewer = await memberAs(t, owner, home, 'viewer');
    expect((await as('GET', `/api/backups/${backup._id}`, undefined, viewer)).status).toBe(200);
    expect((await as('POST', '/api/backups', { clusterId: home }, viewer)).status).toBe(403);
    expect((await as('POST', `/api/backups/${backup._id}/restore`, {}, viewer)).status).toBe(403);
    expect((await as('DELETE', `/api/backups/${backup._id}`, undefined, viewer)).status).toBe(403);
    const developer = await memberAs(t, owner, home, 'developer');
    expect((await as('POST', '/api/backups', { clusterId: home }, developer)).status).toBe(202);
    expect((await as('POST', `/api/backups/${backup._id}/restore`, {}, developer)).status).toBe(202);
    await t.server.app.backupJobs.idle();

    const stranger = await signUp(t);
    for (const [method, path] of [
      ['GET', `/api/backups/${backup._id}`],
      ['GET', `/api/backups/${backup._id}/download`],
      ['POST', `/api/backups/${backup._id}/restore`],
      ['DELETE', `/api/backups/${backup._id}`],
    ] as const) {
      const res = await as(method, path, method === 'POST' ? {} : undefined, stranger);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await as('POST', '/api/backups', { clusterId: home }, stranger)).status).toBe(404);
    // The stranger's own cluster is not a target the owner may restore into.
    const strangerCluster = (
      (await (await as('GET', '/api/clusters', undefined, stranger)).json()) as { data: { _id: string }[] }
    ).data[0]!._id;
    expect(
      (await as('POST', `/api/backups/${backup._id}/restore`, { targetClusterId: strangerCluster })).status,
    ).toBe(404);
  });

  it('takes up a backup a stop left unfinished: written again from a new snapshot', async () => {
    const old = new Date(Date.now() - 120_000).toISOString();
    const id = `bkp_resumed_${Date.now()}`;
    await t.server.storage.backups.create({
      id,
      clusterId: home,
      status: 'running',
      createdAt: old,
      completedAt: null,
      documentCount: 0,
      sizeBytes: 0,
      checksum: null,
    });
    await t.server.storage.jobs.create({
      id: `job_resumed_${Date.now()}`,
      kind: 'backup',
      status: 'running',
      clusterId: home,
      input: { backupId: id },
      counts: { rows: 0, inserted: 0, failed: 0 },
      bytes: 0,
      errors: [],
      failure: null,
      progress: { done: 500, total: null },
      result: null,
      createdAt: old,
      startedAt: old,
      updatedAt: old,
      finishedAt: null,
    });
    await t.server.app.backupJobs.resumeUnfinished();
    await t.server.app.backupJobs.idle();
    const backup = (await (await as('GET', `/api/backups/${id}`)).json()) as BackupAnswer;
    expect(backup).toMatchObject({ status: 'succeeded' });
    expect(backup.documentCount).toBeGreaterThan(1000);
    const lines = await linesOf(id);
    expect(lines.at(-1)).toMatchObject({ type: 'manifest', documents: backup.documentCount });
  });

  it('deletes a backup with its archive', async () => {
    const backup = await backUp(home);
    const gone = await as('DELETE', `/api/backups/${backup._id}`);
    expect(gone.status).toBe(200);
    expect(await gone.json()).toEqual({ _id: backup._id, deleted: true });
    expect((await as('GET', `/api/backups/${backup._id}`)).status).toBe(404);
    expect((await as('GET', `/api/backups/${backup._id}/download`)).status).toBe(404);
  });
});
