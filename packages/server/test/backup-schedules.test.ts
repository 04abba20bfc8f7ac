import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createAccountWithKey, type RunningServer, startServer } from '../src/index.js';
import { asUser, createCluster, memberAs, userOn } from './cluster-helpers.js';
import {
  availableEngines,
  createTestDatabase,
  type SignedUp,
  startTestServer,
  type TestServer,
} from './helpers.js';

/** The clock of the server's schedules: tests move it, and nothing else does. */
function manualClock(start: string) {
  let now = Date.parse(start);
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

interface Schedule {
  clusterId: string;
  cron: string | null;
  retain: number | null;
  nextRunAt: string | null;
  lastRunAt: string | null;
}

describe.each(availableEngines())('backup schedules on %s', (engine) => {
  let t: TestServer;
  let owner: SignedUp;
  let clusterId: string;
  const clock = manualClock('2026-01-01T00:00:00.000Z');

  const as = (method: string, path: string, body?: unknown, who = owner) =>
    asUser(t, who, method, path, body);
  const backupsOf = async (cluster: string) =>
    (
      (await (await as('GET', `/api/backups?clusterId=${cluster}`)).json()) as {
        data: { _id: string; status: string }[];
      }
    ).data;
  /** Moves the clock on and runs what came due, to the end of the backups it started. */
  const tick = async (ms: number) => {
    clock.advance(ms);
    await t.server.app.triggerScheduler.poll();
    await t.server.app.backupJobs.idle();
  };

  beforeAll(async () => {
    t = await startTestServer({ engine, clock });
    owner = await userOn(t, 'team');
    clusterId = (await createCluster(t, owner, 'scheduled'))._id;
    // A paused or provisioning cluster's ticks wait: start once it runs.
    await vi.waitFor(async () => {
      const res = await as('GET', `/api/clusters/${clusterId}`);
      expect(((await res.json()) as { status: string }).status).toBe('running');
    });
  }, 60_000);
  afterAll(() => t?.stop(), 30_000);

  it('answers no schedule until one is set, and the set one with its next tick', async () => {
    const none = await as('GET', `/api/backups/schedule?clusterId=${clusterId}`);
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({
      clusterId,
      cron: null,
      retain: null,
      nextRunAt: null,
      lastRunAt: null,
    });
    const set = await as('PUT', '/api/backups/schedule', { clusterId, cron: '0 * * * *', retain: 2 });
    expect(set.status, await set.clone().text()).toBe(200);
    const schedule = (await set.json()) as Schedule;
    expect(schedule).toMatchObject({ clusterId, cron: '0 * * * *', retain: 2, lastRunAt: null });
    expect(schedule.nextRunAt).toBe(
      new Date(clock.now() + 3_600_000 - (clock.now() % 3_600_000)).toISOString(),
    );
    expect(await (await as('GET', `/api/backups/schedule?clusterId=${clusterId}`)).json()).toEqual(schedule);
  });

  it('backs up once per tick and keeps only the newest `retain`', async () => {
    await as('PUT', '/api/backups/schedule', { clusterId, cron: '0 * * * *', retain: 2 });
    await tick(0);
    expect(await backupsOf(clusterId)).toEqual([]);
    await tick(3_600_000);
    await tick(0);
    const first = await backupsOf(clusterId);
    expect(first).toHaveLength(1);
    expect(first[0]!.status).toBe('succeeded');
    await tick(3_600_000);
    await tick(3_600_000);
    const kept = await backupsOf(clusterId);
    expect(kept).toHaveLength(2);
    expect(kept.map((b) => b._id)).not.toContain(first[0]!._id);
    expect((await as('GET', `/api/backups/${first[0]!._id}`)).status).toBe(404);
    const schedule = (await (
      await as('GET', `/api/backups/schedule?clusterId=${clusterId}`)
    ).json()) as Schedule;
    expect(schedule.lastRunAt).toBe(new Date(clock.now()).toISOString());
  });

  it('runs a tick missed during a long stop once, not once per missed tick', async () => {
    const before = (await backupsOf(clusterId)).length;
    await as('PUT', '/api/backups/schedule', { clusterId, cron: '0 * * * *', retain: 10 });
    await tick(10 * 3_600_000);
    expect(await backupsOf(clusterId)).toHaveLength(before + 1);
  });

  it('stops when the schedule is removed', async () => {
    const removed = await as('PUT', '/api/backups/schedule', { clusterId, cron: null, retain: 1 });
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as Schedule).cron).toBeNull();
    const before = (await backupsOf(clusterId)).length;
    await tick(24 * 3_600_000);
    expect(await backupsOf(clusterId)).toHaveLength(before);
  });

  it('refuses an unreadable expression, a bad retain and an unknown field with 400', async () => {
    for (const body of [
      { clusterId, cron: 'every day', retain: 1 },
      { clusterId, cron: '0 * * * *', retain: 0 },
      { clusterId, cron: '0 * * * *' },
      { clusterId, cron: '0 * * * *', retain: 1, timezone: 'UTC' },
    ]) {
      const res = await as('PUT', '/api/backups/schedule', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('validation_error');
    }
    const bad = await as('PUT', '/api/backups/schedule', { clusterId, cron: 'every day', retain: 1 });
    expect(((await bad.json()) as { details: { field: string } }).details).toMatchObject({
      field: 'cron',
    });
  });

  it('lets a viewer read the schedule but not set it, and hides other clusters', async () => {
    const viewer = await memberAs(t, owner, clusterId, 'viewer');
    expect((await as('GET', `/api/backups/schedule?clusterId=${clusterId}`, undefined, viewer)).status).toBe(
      200,
    );
    const set = await as('PUT', '/api/backups/schedule', { clusterId, cron: '@daily', retain: 1 }, viewer);
    expect(set.status).toBe(403);
    const stranger = await userOn(t, 'team');
    expect(
      (await as('GET', `/api/backups/schedule?clusterId=${clusterId}`, undefined, stranger)).status,
    ).toBe(404);
    const other = await as(
      'PUT',
      '/api/backups/schedule',
      { clusterId, cron: '@daily', retain: 1 },
      stranger,
    );
    expect(other.status).toBe(404);
  });
});

/** Two instances on one PostgreSQL: each tick of a schedule backs up once, whichever instance claims it. */
describe.skipIf(!inject('postgresUrl'))('backup schedules across instances on PostgreSQL', () => {
  const clock = manualClock('2026-01-01T00:00:00.000Z');
  let servers: RunningServer[] = [];
  let token: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-backup-schedule-')));
    servers = await Promise.all(
      dirs.map((dataDir) =>
        startServer(
          { port: 0, host: '127.0.0.1', dataDir, databaseUrl: database.url, logLevel: 'warn' },
          { clock },
        ),
      ),
    );
    cleanup = async () => {
      await Promise.all(servers.map((server) => server.close()));
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    };
    const account = { email: 'schedules@example.com', name: 'Schedules', password: 'long enough pw' };
    await createAccountWithKey(servers[0]!.storage, { ...account, plan: 'team' });
    const signedIn = await fetch(`${servers[0]!.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    token = ((await signedIn.json()) as { token: string }).token;
  }, 60_000);
  afterAll(() => cleanup?.());

  const call = (server: RunningServer, method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('backs up once per tick though both instances poll together', async () => {
    const set = await call(servers[0]!, 'PUT', '/api/backups/schedule', {
      cron: '*/10 * * * * *',
      retain: 100,
    });
    expect(set.status, await set.clone().text()).toBe(200);
    for (let i = 0; i < 5; i++) {
      clock.advance(10_000);
      await Promise.all(servers.map((server) => server.app.triggerScheduler.poll()));
      await Promise.all(servers.map((server) => server.app.backupJobs.idle()));
    }
    const listed = (await (await call(servers[1]!, 'GET', '/api/backups')).json()) as { data: unknown[] };
    expect(listed.data).toHaveLength(5);
  });
});
