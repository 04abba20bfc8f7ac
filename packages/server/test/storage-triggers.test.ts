import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../src/index.js';
import { openStorage } from '../src/storage/index.js';
import type { TriggerRow } from '../src/storage/triggers.js';
import type { Storage } from '../src/storage/types.js';
import { availableEngines, createTestDatabase } from './helpers.js';

/**
 * The storage contract of functions and triggers on every engine. On PostgreSQL two storages over one database
 * stand for two server instances: a schedule's tick must be claimed by exactly one of them.
 */
describe.each(availableEngines())('function and trigger storage on %s', (engine) => {
  let storages: Storage[];
  let clusterId: string;
  let cleanup: () => Promise<void>;
  let seq = 0;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-triggers-storage-'));
    const database = engine === 'postgres' ? await createTestDatabase() : undefined;
    const open = () =>
      openStorage({ dataDir, databaseUrl: database?.url, databasePoolSize: 5, sqliteSynchronous: 'NORMAL' });
    const first = await open();
    storages = engine === 'postgres' ? [first, await open()] : [first];
    ({ clusterId } = await createAccountWithKey(first, {
      email: 'triggers@example.com',
      name: 'Triggers',
      password: 'long enough pw',
    }));
    cleanup = async () => {
      for (const storage of storages) await storage.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup());

  async function scheduled(nextRunAt: string): Promise<TriggerRow> {
    const storage = storages[0]!;
    const functionId = `fn_s${++seq}`;
    await storage.functions.create({
      id: functionId,
      clusterId,
      name: `f${seq}`,
      code: 'export default () => 1;',
      env: {},
      timeoutMs: 1000,
      memoryMb: 64,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    const trigger: TriggerRow = {
      id: `trg_s${seq}`,
      clusterId,
      name: `t${seq}`,
      source: { type: 'schedule', cron: '* * * * *' },
      target: { function: functionId },
      active: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      lastRunAt: null,
      nextRunAt,
    };
    await storage.triggers.create(trigger);
    return trigger;
  }

  it('refuses a second function of the same name in a cluster', async () => {
    const storage = storages[0]!;
    const row = {
      id: 'fn_dup1',
      clusterId,
      name: 'dup',
      code: 'export default () => 1;',
      env: { A: 'b' },
      timeoutMs: 1000,
      memoryMb: 64,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(await storage.functions.create(row)).toBe('created');
    expect(await storage.functions.create({ ...row, id: 'fn_dup2' })).toBe('name_taken');
    expect(await storage.functions.get('fn_dup1')).toMatchObject({ version: 1, env: { A: 'b' } });
  });

  it('gives concurrent deploys distinct versions', async () => {
    const storage = storages[0]!;
    const deployment = {
      code: 'export default () => 2;',
      env: {},
      timeoutMs: 1000,
      memoryMb: 64,
      updatedAt: '2026-01-02T00:00:00.000Z',
    };
    const versions = await Promise.all(
      storages.flatMap((s) => [
        s.functions.deploy('fn_dup1', deployment),
        s.functions.deploy('fn_dup1', deployment),
      ]),
    );
    expect(new Set(versions.map((v) => v!.version)).size).toBe(versions.length);
    expect((await storage.functions.get('fn_dup1'))!.version).toBe(1 + versions.length);
  });

  it('tells whether some trigger has a schedule (none yet here, one after it is stored)', async () => {
    expect(await storages[0]!.triggers.hasSchedules()).toBe(false);
    await scheduled('2999-01-01T00:00:00.000Z');
    for (const storage of storages) expect(await storage.triggers.hasSchedules()).toBe(true);
  });

  it('lets exactly one instance claim a due tick, and moves it on', async () => {
    const trigger = await scheduled('2026-01-01T00:01:00.000Z');
    const next = () => '2026-01-01T00:02:00.000Z';
    const claims = await Promise.all(
      storages.map((s) => s.triggers.claimDueTicks('2026-01-01T00:01:30.000Z', next, 100)),
    );
    const mine = claims.flat().filter((c) => c.trigger.id === trigger.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.scheduledAt).toBe('2026-01-01T00:01:00.000Z');
    const again = await storages[0]!.triggers.claimDueTicks('2026-01-01T00:01:30.000Z', next, 100);
    expect(again.filter((c) => c.trigger.id === trigger.id)).toEqual([]);
    expect((await storages[0]!.triggers.get(trigger.id))!.nextRunAt).toBe('2026-01-01T00:02:00.000Z');
  });

  it('leaves the ticks of a paused cluster due until it runs again', async () => {
    const storage = storages[0]!;
    const trigger = await scheduled('2026-01-01T00:05:00.000Z');
    await storage.clusters.setStatus(clusterId, ['running'], 'paused');
    const next = () => '2026-01-01T00:06:00.000Z';
    const paused = await storage.triggers.claimDueTicks('2026-01-01T00:05:30.000Z', next, 100);
    expect(paused.filter((c) => c.trigger.id === trigger.id)).toEqual([]);
    await storage.clusters.setStatus(clusterId, ['paused'], 'running');
    const resumed = await storage.triggers.claimDueTicks('2026-01-01T00:05:30.000Z', next, 100);
    expect(resumed.filter((c) => c.trigger.id === trigger.id)).toHaveLength(1);
  });

  it('records runs newest first and finishes them', async () => {
    const storage = storages[0]!;
    const trigger = await scheduled('2999-01-01T00:00:00.000Z');
    for (const [id, startedAt] of [
      ['trun_a', '2026-01-01T00:00:01.000Z'],
      ['trun_b', '2026-01-01T00:00:02.000Z'],
    ] as const)
      await storage.triggers.recordRun({
        id,
        triggerId: trigger.id,
        status: 'queued',
        startedAt,
        durationMs: null,
        event: { manual: true },
        error: null,
      });
    await storage.triggers.finishRun({
      id: 'trun_a',
      triggerId: trigger.id,
      status: 'error',
      durationMs: 3,
      error: 'x',
    });
    const page = await storage.triggers.runs(trigger.id, 10, 0);
    expect(page.total).toBe(2);
    expect(page.rows.map((r) => [r.id, r.status, r.error])).toEqual([
      ['trun_b', 'queued', null],
      ['trun_a', 'error', 'x'],
    ]);
    expect((await storage.triggers.get(trigger.id))!.lastRunAt).toBe('2026-01-01T00:00:02.000Z');
  });
});
