import { Cluster, ClusterList, Job } from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';
import { expectError } from './key-helpers.js';

forEachEngine(
  (server) => {
    let t: TestServer;
    beforeAll(() => {
      t = server();
    });

    const as = (who: SignedUp, method: string, path: string, body?: unknown, headers = {}) =>
      t.call(method, path, { key: null, headers: { ...bearer(who.token), ...headers }, body });
    /** A signed-up user on `plan`. */
    const userOn = async (plan: string) => {
      const who = await signUp(t);
      await t.server.storage.accounts.setPlan(who.user._id, plan, new Date().toISOString());
      return who;
    };
    const create = async (who: SignedUp, body: unknown) => {
      const res = await as(who, 'POST', '/api/clusters', body);
      expect(res.status, await res.clone().text()).toBe(201);
      return Cluster.parse(await res.json());
    };

    describe('life cycle', () => {
      it('creates a cluster `creating` that runs at once, and lists and gets it with its counts', async () => {
        const who = await userOn('team');
        const created = await create(who, { name: 'staging' });
        expect(created).toMatchObject({ name: 'staging', region: 'local', tier: 'team', status: 'creating' });
        const one = await as(who, 'GET', `/api/clusters/${created._id}`);
        expect(Cluster.parse(await one.json())).toMatchObject({
          _id: created._id,
          status: 'running',
          documentCount: 0,
          storageBytes: 0,
        });
        const list = ClusterList.parse(await (await as(who, 'GET', '/api/clusters')).json());
        expect(list.total).toBe(2);
        expect(list.data.map((c) => c.name)).toEqual(['default', 'staging']);
      });

      it('counts the documents and bytes written to the cluster', async () => {
        const who = await userOn('team');
        const created = await create(who, { name: 'counted' });
        const header = { 'x-cluster-id': created._id };
        for (const total of [1, 22])
          expect((await as(who, 'POST', '/api/v1/data/orders', { total }, header)).status).toBe(201);
        const one = Cluster.parse(await (await as(who, 'GET', `/api/clusters/${created._id}`)).json());
        expect(one.documentCount).toBe(2);
        expect(one.storageBytes).toBeGreaterThan(0);
      });

      it('renames and changes the tier; a tier above the plan is 403 plan_limit', async () => {
        const who = await userOn('starter');
        const created = await create(who, { name: 'a', tier: 'free' });
        const patched = await as(who, 'PATCH', `/api/clusters/${created._id}`, {
          name: 'b',
          tier: 'starter',
        });
        expect(Cluster.parse(await patched.json())).toMatchObject({ name: 'b', tier: 'starter' });
        await expectError(
          await as(who, 'PATCH', `/api/clusters/${created._id}`, { tier: 'team' }),
          403,
          'plan_limit',
        );
      });

      it('pauses and resumes; pausing twice changes nothing', async () => {
        const who = await userOn('team');
        const created = await create(who, { name: 'p' });
        const paused = await as(who, 'POST', `/api/clusters/${created._id}/pause`);
        expect(Cluster.parse(await paused.json()).status).toBe('paused');
        const again = await as(who, 'POST', `/api/clusters/${created._id}/pause`);
        expect(Cluster.parse(await again.json()).status).toBe('paused');
        const resumed = await as(who, 'POST', `/api/clusters/${created._id}/resume`);
        expect(Cluster.parse(await resumed.json()).status).toBe('running');
      });

      it('deletes by a job: 202, `deleting`, then 404, and the job succeeds', async () => {
        const who = await userOn('team');
        const created = await create(who, { name: 'doomed' });
        const res = await as(who, 'DELETE', `/api/clusters/${created._id}`);
        expect(res.status).toBe(202);
        const job = Job.parse(await res.json());
        expect(job).toMatchObject({ kind: 'cluster.delete', input: { clusterId: created._id } });
        await t.server.app.clusterDeletions.idle();
        await expectError(await as(who, 'GET', `/api/clusters/${created._id}`), 404, 'not_found');
        const finished = Job.parse(await (await as(who, 'GET', `/api/jobs/${job._id}`)).json());
        expect(finished.status).toBe('succeeded');
        await expectError(await as(who, 'DELETE', `/api/clusters/${created._id}`), 404, 'not_found');
      });

      it('answers 404 for a cluster of another user, as for none', async () => {
        const owner = await userOn('team');
        const stranger = await userOn('team');
        const created = await create(owner, { name: 'private' });
        for (const [method, path] of [
          ['GET', ''],
          ['PATCH', ''],
          ['POST', '/pause'],
          ['DELETE', ''],
        ] as const) {
          const body = method === 'PATCH' ? { name: 'x' } : undefined;
          await expectError(
            await as(stranger, method, `/api/clusters/${created._id}${path}`, body),
            404,
            'not_found',
          );
        }
        await expectError(await as(owner, 'GET', '/api/clusters/cls_nothing'), 404, 'not_found');
      });
    });

    describe('plan limits and bad input', () => {
      it('allows the free plan one cluster, the starter plan three', async () => {
        const free = await userOn('free');
        await expectError(await as(free, 'POST', '/api/clusters', { name: 'second' }), 403, 'plan_limit');
        const starter = await userOn('starter');
        await create(starter, { name: 'two' });
        await create(starter, { name: 'three' });
        await expectError(await as(starter, 'POST', '/api/clusters', { name: 'four' }), 403, 'plan_limit');
      });

      it('frees a place in the plan once a cluster is being deleted', async () => {
        const who = await userOn('starter');
        const second = await create(who, { name: 'two' });
        await create(who, { name: 'three' });
        expect((await as(who, 'DELETE', `/api/clusters/${second._id}`)).status).toBe(202);
        await create(who, { name: 'three again' });
      });

      it('refuses a tier above the plan (403), an unknown region and a bad body (400)', async () => {
        const who = await userOn('starter');
        await expectError(
          await as(who, 'POST', '/api/clusters', { name: 'x', tier: 'team' }),
          403,
          'plan_limit',
        );
        await expectError(
          await as(who, 'POST', '/api/clusters', { name: 'x', region: 'mars-1' }),
          400,
          'validation_error',
        );
        await expectError(await as(who, 'POST', '/api/clusters', { name: '' }), 400, 'validation_error');
        await expectError(
          await as(who, 'POST', '/api/clusters', { name: 'x', extra: 1 }),
          400,
          'validation_error',
        );
      });

      it('needs a session token: an API key is 401', async () => {
        await expectError(await t.call('GET', '/api/clusters'), 401, 'unauthorized');
      });
    });
  },
  { config: { regions: ['local', 'eu-west'] } },
);

describe('regions', () => {
  it('comes from DATAPLATFORM_REGIONS, local by default', async () => {
    const { loadConfig } = await import('../src/config.js');
    expect(loadConfig({}).regions).toEqual(['local']);
    expect(loadConfig({ DATAPLATFORM_REGIONS: 'eu-west, us-east' }).regions).toEqual(['eu-west', 'us-east']);
  });
});
