import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asUser, createCluster, userOn } from './cluster-helpers.js';
import { availableEngines, type SignedUp, startTestServer, type TestServer } from './helpers.js';
import { triggerRuns } from './trigger-helpers.js';

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

describe.each(availableEngines())('triggers on %s', (engine) => {
  let t: TestServer;
  let owner: SignedUp;
  let clusterId: string;
  const clock = manualClock('2026-01-01T00:00:00.000Z');
  let names = 0;

  beforeAll(async () => {
    t = await startTestServer({ engine, clock });
    owner = await userOn(t, 'team');
    clusterId = (await createCluster(t, owner, 'triggers'))._id;
    await vi.waitFor(async () => {
      const res = await asUser(t, owner, 'GET', `/api/clusters/${clusterId}`);
      expect(((await res.json()) as { status: string }).status).toBe('running');
    });
  }, 60_000);
  afterAll(() => t?.stop(), 30_000);

  async function deployFunction(code: string) {
    const res = await asUser(t, owner, 'POST', '/api/functions', { name: `tfn-${++names}`, code, clusterId });
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { _id: string })._id;
  }

  async function createTrigger(body: Record<string, unknown>) {
    const res = await asUser(t, owner, 'POST', '/api/triggers', { name: `trigger-${++names}`, ...body });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { _id: string; active: boolean; lastRunAt: string | null };
  }

  const { runsOf, settled } = triggerRuns(
    () => t,
    () => owner,
  );

  describe('refusals', () => {
    it.each([
      ['an invalid cron expression', { type: 'schedule', cron: 'every day' }],
      ['an unknown time zone', { type: 'schedule', cron: '0 * * * *', timezone: 'Mars/Olympus' }],
    ])('refuses %s with 400 and stores nothing', async (_, source) => {
      const fn = await deployFunction('export default () => 1;');
      const res = await asUser(t, owner, 'POST', '/api/triggers', {
        name: 'bad',
        source,
        target: { function: fn },
      });
      expect(res.status, await res.clone().text()).toBe(400);
      const list = await asUser(t, owner, 'GET', `/api/triggers?clusterId=${clusterId}&limit=1000`);
      expect(((await list.json()) as { data: { name: string }[] }).data.map((x) => x.name)).not.toContain(
        'bad',
      );
    });

    it('refuses a target that does not exist with 404', async () => {
      const res = await asUser(t, owner, 'POST', '/api/triggers', {
        name: 'orphan',
        clusterId,
        source: { type: 'schedule', cron: '0 * * * *' },
        target: { function: 'fn_missing' },
      });
      expect(res.status).toBe(404);
    });

    it('refuses a function of another cluster with 404', async () => {
      const other = await userOn(t, 'team');
      const theirs = await asUser(t, other, 'POST', '/api/functions', {
        name: 'theirs',
        code: 'export default () => 1;',
      });
      const fn = ((await theirs.json()) as { _id: string })._id;
      const res = await asUser(t, owner, 'POST', '/api/triggers', {
        name: 'foreign',
        clusterId,
        source: { type: 'schedule', cron: '0 * * * *' },
        target: { function: fn },
      });
      expect(res.status).toBe(404);
    });
  });

  describe('manual runs', () => {
    it('answers 202 with the queued run, which then ends ok with { manual: true } as input', async () => {
      const fn = await deployFunction('export default (input) => input;');
      const trigger = await createTrigger({
        source: { type: 'schedule', cron: '0 0 1 1 *' },
        target: { function: fn },
      });
      const res = await asUser(t, owner, 'POST', `/api/triggers/${trigger._id}/run`);
      expect(res.status).toBe(202);
      expect(await res.json()).toMatchObject({ status: 'queued', event: { manual: true } });
      const [run] = await settled(trigger._id, 1);
      expect(run).toMatchObject({ status: 'ok', event: { manual: true }, error: null });
      const invocations = await asUser(t, owner, 'GET', `/api/functions/${fn}/invocations`);
      expect(((await invocations.json()) as { data: { trigger: string }[] }).data[0]!.trigger).toBe('manual');
    });

    it('records a failing function as an error run', async () => {
      const fn = await deployFunction("export default () => { throw new Error('broken'); };");
      const trigger = await createTrigger({
        source: { type: 'schedule', cron: '0 0 1 1 *' },
        target: { function: fn },
      });
      await asUser(t, owner, 'POST', `/api/triggers/${trigger._id}/run`);
      const [run] = await settled(trigger._id, 1);
      expect(run!.status).toBe('error');
      expect(run!.error).toContain('broken');
    });
  });

  describe('schedules', () => {
    it('runs once per tick of the injected clock, with { scheduledAt }', async () => {
      const fn = await deployFunction('export default (input) => input;');
      // Every ten seconds; the clock stands still unless the test moves it.
      const trigger = await createTrigger({
        source: { type: 'schedule', cron: '*/10 * * * * *' },
        target: { function: fn },
      });
      const scheduler = t.server.app.triggerScheduler;
      await scheduler.poll();
      await t.server.app.triggerRunner.drain();
      expect(await runsOf(trigger._id)).toEqual([]);
      clock.advance(10_000);
      await scheduler.poll();
      await scheduler.poll();
      await t.server.app.triggerRunner.drain();
      const runs = await runsOf(trigger._id);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: 'ok', event: { scheduledAt: expect.any(String) } });
    });

    it('holds a tick while the cluster is paused and runs it once after resume', async () => {
      const fn = await deployFunction('export default () => 1;');
      const trigger = await createTrigger({
        source: { type: 'schedule', cron: '*/10 * * * * *' },
        target: { function: fn },
      });
      expect((await asUser(t, owner, 'POST', `/api/clusters/${clusterId}/pause`)).status).toBe(200);
      clock.advance(60_000);
      await t.server.app.triggerScheduler.poll();
      await t.server.app.triggerRunner.drain();
      expect(await runsOf(trigger._id)).toEqual([]);
      expect((await asUser(t, owner, 'POST', `/api/clusters/${clusterId}/resume`)).status).toBe(200);
      await t.server.app.triggerScheduler.poll();
      await t.server.app.triggerRunner.drain();
      expect(await runsOf(trigger._id)).toHaveLength(1);
    });

    it('fires nothing while the trigger is paused', async () => {
      const fn = await deployFunction('export default () => 1;');
      const trigger = await createTrigger({
        source: { type: 'schedule', cron: '*/10 * * * * *' },
        target: { function: fn },
      });
      expect(
        await (await asUser(t, owner, 'POST', `/api/triggers/${trigger._id}/pause`)).json(),
      ).toMatchObject({ active: false });
      clock.advance(30_000);
      await t.server.app.triggerScheduler.poll();
      await t.server.app.triggerRunner.drain();
      expect(await runsOf(trigger._id)).toEqual([]);
    });
  });
});
