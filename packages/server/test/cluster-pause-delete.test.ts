import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, Job } from '@dataplatform/contract';
import Database from 'better-sqlite3';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningServer, startServer } from '../src/index.js';
import type { JobRecord } from '../src/storage/jobs.js';
import { asUser, createCluster, memberAs, userOn } from './cluster-helpers.js';
import {
  availableEngines,
  bearer,
  createTestDatabase,
  forEachEngine,
  type SignedUp,
  signUp,
  type TestServer,
} from './helpers.js';
import { expectError } from './key-helpers.js';
import { startReceiver } from './webhooks/receiver.js';

/** Every row of the database that names one of `ids` in any column, as `table: count`. */
async function rowsNaming(t: TestServer, ids: readonly string[]): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  if (t.engine === 'sqlite') {
    const db = new Database(sqliteFile(t.dataDir), { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
        name: string;
      }[];
      for (const { name } of tables) {
        const columns = db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[];
        const where = columns
          .map((c) => `CAST("${c.name}" AS TEXT) IN (${ids.map(() => '?').join(',')})`)
          .join(' OR ');
        const params = columns.flatMap(() => ids);
        const { n } = db.prepare(`SELECT COUNT(*) AS n FROM "${name}" WHERE ${where}`).get(...params) as {
          n: number;
        };
        if (n > 0) found[name] = n;
      }
    } finally {
      db.close();
    }
    return found;
  }
  const sql = postgres(t.databaseUrl!, { max: 1, onnotice: () => {} });
  try {
    const columns = await sql<{ table: string; column: string }[]>`
      SELECT table_name AS table, column_name AS column FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('text', 'character varying')`;
    const byTable = new Map<string, string[]>();
    for (const { table, column } of columns) byTable.set(table, [...(byTable.get(table) ?? []), column]);
    for (const [table, names] of byTable) {
      const where = names.map((name) => `"${name}" = ANY($1)`).join(' OR ');
      const [row] = await sql.unsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM "${table}" WHERE ${where}`,
        [ids as string[]],
      );
      if (row!.n > 0) found[table] = row!.n;
    }
  } finally {
    await sql.end();
  }
  return found;
}

function sqliteFile(dataDir: string): string {
  return join(dataDir, 'dataplatform.sqlite');
}

forEachEngine((server) => {
  let t: TestServer;
  beforeAll(() => {
    t = server();
  });
  const inCluster = (id: string) => ({ 'x-cluster-id': id });

  describe('pause', () => {
    it('answers 503 cluster_unavailable to every data request, by key or session, until resumed', async () => {
      const owner = await userOn(t, 'team');
      const cluster = await createCluster(t, owner, 'pausable');
      const dev = await memberAs(t, owner, cluster._id, 'developer');
      const keyRes = await asUser(t, dev, 'POST', '/api/keys', {
        name: 'k',
        scopes: ['data:read', 'data:write'],
        clusterId: cluster._id,
      });
      const { secret } = (await keyRes.json()) as { secret: string };
      expect((await t.call('POST', '/api/v1/data/orders', { key: secret, body: { n: 1 } })).status).toBe(201);
      expect((await asUser(t, owner, 'POST', `/api/clusters/${cluster._id}/pause`)).status).toBe(200);
      for (const res of [
        await t.call('GET', '/api/v1/data/orders', { key: secret }),
        await t.call('POST', '/api/v1/data/orders', { key: secret, body: { n: 2 } }),
        await asUser(t, owner, 'GET', '/api/v1/data/orders', undefined, inCluster(cluster._id)),
        await asUser(t, dev, 'POST', '/api/v1/data/batch', { operations: [] }, inCluster(cluster._id)),
        await asUser(t, dev, 'GET', '/api/v1/data/webhooks', undefined, inCluster(cluster._id)),
      ])
        await expectError(res, 503, 'cluster_unavailable');
      // The cluster's own routes still answer: it can be read and resumed.
      const read = Cluster.parse(await (await asUser(t, dev, 'GET', `/api/clusters/${cluster._id}`)).json());
      expect(read.status).toBe('paused');
      expect((await asUser(t, owner, 'POST', `/api/clusters/${cluster._id}/resume`)).status).toBe(200);
      expect((await t.call('GET', '/api/v1/data/orders', { key: secret })).status).toBe(200);
      // Another cluster of the same user is not touched by the pause.
      expect((await asUser(t, owner, 'GET', '/api/v1/data/orders')).status).toBe(200);
    });

    it('holds the webhook deliveries of a paused cluster, and sends them after resume', async () => {
      const owner = await userOn(t, 'team');
      const cluster = await createCluster(t, owner, 'hooks');
      let open = false;
      // The receiver refuses until the cluster is paused, so the delivery is pending, due, when the pause lands.
      const hook = await startReceiver(() => ({ status: open ? 200 : 503 }));
      try {
        const sub = await asUser(
          t,
          owner,
          'POST',
          '/api/v1/data/webhooks',
          { url: hook.url, events: ['*'] },
          inCluster(cluster._id),
        );
        expect(sub.status, await sub.clone().text()).toBe(201);
        const created = await asUser(
          t,
          owner,
          'POST',
          '/api/v1/data/orders',
          { n: 1 },
          inCluster(cluster._id),
        );
        expect(created.status).toBe(201);
        await hook.waitFor(1);
        expect((await asUser(t, owner, 'POST', `/api/clusters/${cluster._id}/pause`)).status).toBe(200);
        open = true;
        // Paused: the worker's claim passes the cluster's due deliveries over, however late it is.
        const farFuture = new Date(Date.now() + 3_600_000).toISOString();
        const claimed = await t.server.storage.deliveries.claim(farFuture, farFuture, 1000);
        expect(claimed.filter((d) => d.clusterId === cluster._id)).toEqual([]);
        expect((await asUser(t, owner, 'POST', `/api/clusters/${cluster._id}/resume`)).status).toBe(200);
        const delivered = await hook.waitFor(hook.received.length + 1);
        expect(delivered.at(-1)!.body).toContain('document.created');
      } finally {
        await hook.close();
      }
    });
  });

  describe('delete', () => {
    it('makes the keys unknown at once and purges every row of the cluster from every table', async () => {
      const owner = await userOn(t, 'team');
      const cluster = await createCluster(t, owner, 'purged');
      const member = await memberAs(t, owner, cluster._id, 'developer');
      const keyRes = await asUser(t, member, 'POST', '/api/keys', {
        name: 'k',
        scopes: ['data:write'],
        clusterId: cluster._id,
      });
      const { key, secret } = (await keyRes.json()) as { key: { _id: string }; secret: string };
      const hook = await startReceiver();
      const ids: string[] = [cluster._id, key._id];
      try {
        const sub = await asUser(
          t,
          owner,
          'POST',
          '/api/v1/data/webhooks',
          { url: hook.url, events: ['*'] },
          inCluster(cluster._id),
        );
        ids.push(((await sub.json()) as { _id: string })._id);
        for (let n = 0; n < 30; n++) {
          const res = await t.call('POST', '/api/v1/data/orders', {
            key: secret,
            body: { _id: `doc-${cluster._id}-${n}`, n },
            headers: { 'idempotency-key': `idem-${cluster._id}-${n}` },
          });
          expect(res.status).toBe(201);
          ids.push(`doc-${cluster._id}-${n}`, `idem-${cluster._id}-${n}`);
        }
        await hook.waitFor(30);
        const imported = await t.call('POST', '/api/v1/data/items/import', {
          key: secret,
          body: '{"a":1}\n{"a":2}\n',
          headers: { 'content-type': 'application/x-ndjson' },
        });
        expect(imported.status).toBe(202);
        ids.push(((await imported.json()) as { _id: string })._id);
        const schema = `/api/schema/collections/orders/validator?clusterId=${cluster._id}`;
        expect((await asUser(t, owner, 'PUT', schema, { schema: { type: 'object' } })).status).toBe(200);
        const index = await asUser(
          t,
          owner,
          'POST',
          `/api/schema/collections/orders/indexes?clusterId=${cluster._id}`,
          {
            fields: [{ path: 'n' }],
          },
        );
        expect(index.status).toBe(202);
        await asUser(t, owner, 'POST', `/api/clusters/${cluster._id}/invitations`, {
          email: 'later@example.com',
          role: 'viewer',
        });
        expect(Object.keys(await rowsNaming(t, ids))).toEqual(
          expect.arrayContaining([
            'clusters',
            'api_keys',
            'cluster_members',
            'webhook_subscriptions',
            'jobs',
            'collection_validators',
            'collection_indexes',
          ]),
        );

        const res = await asUser(t, owner, 'DELETE', `/api/clusters/${cluster._id}`);
        expect(res.status).toBe(202);
        const job = Job.parse(await res.json());
        await expectError(await t.call('GET', '/api/v1/data/orders', { key: secret }), 401, 'unauthorized');
        await t.server.app.clusterDeletions.idle();
        const finished = Job.parse(await (await asUser(t, owner, 'GET', `/api/jobs/${job._id}`)).json());
        expect(finished).toMatchObject({ status: 'succeeded' });
        expect(finished.counts.rows).toBeGreaterThanOrEqual(30);
        // Left: the tombstone (answered as 404), the deletion job naming it, and the cluster's metered usage, which
        // its owner's invoices still bill (docs/billing.md); nothing else.
        await t.server.app.billing.meter?.flush();
        const left = await rowsNaming(t, [...ids, job._id]);
        const usage = t.server.app.billing.meter ? { billing_usage_days: 1 } : {};
        // The request log keeps the cluster's requests until DATAPLATFORM_LOG_RETENTION_DAYS removes them, as the
        // owner's history (docs/observability.md).
        const kept = Object.fromEntries(
          Object.entries(left).filter(([table]) => !table.startsWith('request_log')),
        );
        expect(kept).toEqual({ clusters: 1, jobs: 1, ...usage });
        await expectError(await asUser(t, member, 'GET', `/api/clusters/${cluster._id}`), 404, 'not_found');
      } finally {
        await hook.close();
      }
    });
  });
});

describe.each(availableEngines())('an interrupted purge on %s', (engine) => {
  let dataDir: string;
  let database: { url: string; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-purge-'));
    database = engine === 'postgres' ? await createTestDatabase() : undefined;
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const start = () =>
    startServer({ port: 0, host: '127.0.0.1', dataDir, databaseUrl: database?.url, logLevel: 'warn' });

  it('is taken up by the next start and completes', async () => {
    let first: RunningServer | undefined = await start();
    let who: SignedUp;
    let clusterId: string;
    const job: JobRecord = {
      id: `job_interrupted_${engine}`,
      kind: 'cluster.delete',
      status: 'running',
      clusterId: '',
      input: {},
      counts: { rows: 0, inserted: 0, failed: 0 },
      bytes: 0,
      errors: [],
      failure: null,
      createdAt: new Date().toISOString(),
      startedAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      finishedAt: null,
    };
    try {
      const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
        fetch(`${first!.url}${path}`, {
          method,
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
      who = await signUp({ call: (m, p, o = {}) => call(m, p, o.body, o.headers) });
      clusterId = (
        (await (await call('GET', '/api/clusters', undefined, bearer(who.token))).json()) as {
          data: { _id: string }[];
        }
      ).data[0]!._id;
      for (let n = 0; n < 5; n++)
        expect((await call('POST', '/api/v1/data/orders', { n }, bearer(who.token))).status).toBe(201);
      // The server stops right after the deletion began: the job is stored `running`, nothing purged yet.
      job.clusterId = clusterId;
      job.input = { clusterId };
      expect(await first.storage.clusters.startDeletion(clusterId, job)).toBe(true);
    } finally {
      await first?.close();
      first = undefined;
    }
    const second = await start();
    try {
      await second.app.clusterDeletions.idle();
      const stored = await second.storage.jobs.find(job.id);
      expect(stored).toMatchObject({ status: 'succeeded', counts: { rows: expect.any(Number) } });
      expect(stored!.counts.rows).toBeGreaterThanOrEqual(5);
      expect(await second.storage.clusters.find(clusterId!)).toBeNull();
    } finally {
      await second.close();
    }
  }, 60_000);
});

// Two instances on one PostgreSQL: a pause through one is refused by the other at once.
describe.skipIf(!inject('postgresUrl'))('pause across instances on PostgreSQL', () => {
  it('is seen by the other instance on its next request', async () => {
    const database = await createTestDatabase();
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-pause-')));
    const [a, b] = await Promise.all(
      dirs.map((dataDir) =>
        startServer({ port: 0, host: '127.0.0.1', dataDir, databaseUrl: database.url, logLevel: 'warn' }),
      ),
    );
    try {
      const call = (
        server: RunningServer,
        method: string,
        path: string,
        headers: Record<string, string>,
        body?: unknown,
      ) =>
        fetch(`${server.url}${path}`, {
          method,
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
      const who = await signUp({ call: (m, p, o = {}) => call(a!, m, p, o.headers ?? {}, o.body) });
      const keyRes = await call(a!, 'POST', '/api/keys', bearer(who.token), {
        name: 'k',
        scopes: ['data:read'],
      });
      const { key, secret } = (await keyRes.json()) as { key: { clusterId: string }; secret: string };
      // b has the key's record (with its cluster's status) in its authentication cache.
      expect((await call(b!, 'GET', '/api/v1/data/orders', { 'x-api-key': secret })).status).toBe(200);
      expect((await call(a!, 'POST', `/api/clusters/${key.clusterId}/pause`, bearer(who.token))).status).toBe(
        200,
      );
      const refused = await call(b!, 'GET', '/api/v1/data/orders', { 'x-api-key': secret });
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { code: string }).code).toBe('cluster_unavailable');
      const bySession = await call(b!, 'GET', '/api/v1/data/orders', bearer(who.token));
      expect(bySession.status).toBe(503);
      expect(
        (await call(b!, 'POST', `/api/clusters/${key.clusterId}/resume`, bearer(who.token))).status,
      ).toBe(200);
      expect((await call(a!, 'GET', '/api/v1/data/orders', { 'x-api-key': secret })).status).toBe(200);
    } finally {
      await Promise.all([a, b].map((server) => server?.close()));
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
