import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningServer, startServer } from '../src/index.js';
import { createTestDatabase } from './helpers.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';

/** Two instances on one fresh PostgreSQL database whose answers about subscriptions last `leaseMs`. */
async function twoInstances(leaseMs: number) {
  const database = await createTestDatabase();
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-presence-')));
  const start = (dataDir: string) =>
    startServer(
      {
        port: 0,
        host: '127.0.0.1',
        dataDir,
        databaseUrl: database.url,
        logLevel: 'fatal',
        encryptionKey: 'presence-test-key-presence-test-key-0123',
      },
      { presenceLeaseMs: leaseMs },
    );
  const a = await start(dirs[0]!);
  const b = await start(dirs[1]!);
  const dev = a.devAccount!;
  const sql = postgres(database.url, { max: 4, onnotice: () => {} });
  const call = (server: RunningServer, method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { 'x-api-key': dev.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** Recorded leases of the cluster: all of them, or those some instance may still trust (database clock). */
  const leases = async (which: 'recorded' | 'live') => {
    const [row] = await sql<{ count: number }[]>`
      SELECT count(*)::int AS count FROM webhook_presence_leases
      WHERE cluster_id = ${dev.clusterId} AND (${which} = 'recorded' OR absent_until > clock_timestamp())`;
    return row!.count;
  };
  return {
    a,
    b,
    sql,
    clusterId: dev.clusterId,
    call,
    leases,
    async close() {
      await Promise.all([a.close(), b.close()]);
      await sql.end();
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.skipIf(!inject('postgresUrl'))('new subscriptions and instances that read "no subscription"', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  describe('with 3 s leases', () => {
    let t: Awaited<ReturnType<typeof twoInstances>>;
    beforeAll(async () => {
      t = await twoInstances(3_000);
    }, 60_000);
    afterAll(() => t?.close());

    it('acknowledges a create on A only after B stopped trusting its "none", so B captures its next write', async () => {
      // B's write finds no subscription, and B keeps that answer for its lease (recorded in the database).
      expect((await t.call(t.b, 'POST', '/api/v1/data/orders', { _id: 'before' })).status).toBe(201);
      expect(await t.leases('recorded')).toBe(1);
      const res = await t.call(t.a, 'POST', '/api/v1/data/webhooks', {
        url: `${receiver.url}/orders`,
        events: ['*'],
        collection: 'orders',
      });
      expect(res.status).toBe(201);
      // Acknowledged once no instance may still trust "none" ...
      expect(await t.leases('live')).toBe(0);
      // ... so the very next write, on B, is captured.
      expect((await t.call(t.b, 'POST', '/api/v1/data/orders', { _id: 'after' })).status).toBe(201);
      const [arrived] = await receiver.waitFor(1);
      expect(JSON.parse(arrived!.body)).toMatchObject({ type: 'document.created', documentId: 'after' });
      receiver.received.splice(0);
    }, 30_000);

    it('makes a read of presence that meets a create in progress wait for its commit and answer "present"', async () => {
      const other = 'cls_presence_other';
      await t.sql`INSERT INTO clusters (id, owner_id, name, region, tier, status, created_at)
        SELECT ${other}, owner_id, 'other', region, tier, status, created_at FROM clusters WHERE id = ${t.clusterId}`;
      // A create holds the lease row (as PostgresWebhooks.create's statement does) until it commits ...
      let commit!: () => void;
      const committed = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const create = t.sql.begin(async (tx) => {
        await tx`INSERT INTO webhook_presence_leases (cluster_id, absent_until) VALUES (${other}, 'epoch')
          ON CONFLICT (cluster_id) DO UPDATE SET absent_until = webhook_presence_leases.absent_until`;
        await tx`INSERT INTO webhook_subscriptions (id, cluster_id, url, events, collection, secret, created_at)
          VALUES ('wh_presence', ${other}, 'http://127.0.0.1:9/x', '["*"]', NULL, 'secret', '2026-01-01')`;
        locked();
        await committed;
      });
      await holding;
      // ... so a presence read started meanwhile waits on the row's lock ...
      const read = t.sql<
        { present: boolean }[]
      >`SELECT webhook_presence(${other}, 60000) AS present`.execute();
      for (;;) {
        const [row] = await t.sql<{ waiting: number }[]>`
          SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND query LIKE 'SELECT webhook_presence(%'`;
        if (row!.waiting > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      commit();
      await create;
      // ... and answers with the subscription that the create committed (its first look, before the lock, saw none).
      expect((await read)[0]!.present).toBe(true);
    });
  });

  describe('with 10-minute leases', () => {
    let t: Awaited<ReturnType<typeof twoInstances>>;
    beforeAll(async () => {
      t = await twoInstances(600_000);
    }, 60_000);
    afterAll(() => t?.close());

    it('acknowledges creates at once when no instance read "no subscription"', async () => {
      // A fixed wait of one lease would outlast the test's 30 s.
      const first = await t.call(t.a, 'POST', '/api/v1/data/webhooks', {
        url: `${receiver.url}/first`,
        events: ['*'],
      });
      expect(first.status).toBe(201);
      // B's first look finds the subscription: nothing is recorded, and its writes are captured.
      expect((await t.call(t.b, 'POST', '/api/v1/data/orders', { _id: 'one' })).status).toBe(201);
      expect(await t.leases('live')).toBe(0);
      const second = await t.call(t.b, 'POST', '/api/v1/data/webhooks', {
        url: `${receiver.url}/second`,
        events: ['*'],
      });
      expect(second.status).toBe(201);
      expect((await t.call(t.a, 'POST', '/api/v1/data/orders', { _id: 'two' })).status).toBe(201);
      const arrived = await receiver.waitFor(3);
      expect(arrived.map((request) => request.path).sort()).toEqual(['/first', '/first', '/second']);
      receiver.received.splice(0);
    }, 30_000);
  });
});
