import { verifyAsync } from '@dataplatform/webhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { asUser, createCluster, userOn } from './cluster-helpers.js';
import { availableEngines, type SignedUp, startTestServer, type TestServer } from './helpers.js';
import { triggerRuns } from './trigger-helpers.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';

/** A failed run is retried after this long: long enough for another document's five runs to end meanwhile. */
const RETRY_MS = 1500;

// Document triggers on the system clock (their deliveries are claimed like a webhook's retries), with targets that
// are functions or webhooks posting to a real receiver on loopback.
describe.each(availableEngines())('document triggers on %s', (engine) => {
  let t: TestServer;
  let owner: SignedUp;
  let clusterId: string;
  let names = 0;
  const receivers: Receiver[] = [];
  const headers = () => ({ 'x-cluster-id': clusterId });

  beforeAll(async () => {
    t = await startTestServer({
      engine,
      config: { webhookAllowLoopback: true, webhookRetrySchedule: [RETRY_MS], webhookPollInterval: 200 },
    });
    owner = await userOn(t, 'team');
    clusterId = (await createCluster(t, owner, 'events'))._id;
    await vi.waitFor(async () => {
      const res = await asUser(t, owner, 'GET', `/api/clusters/${clusterId}`);
      expect(((await res.json()) as { status: string }).status).toBe('running');
    });
  }, 60_000);
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
    await t?.stop();
  }, 30_000);

  async function deployFunction(code: string) {
    const res = await asUser(t, owner, 'POST', '/api/functions', { name: `efn-${++names}`, code, clusterId });
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { _id: string })._id;
  }

  async function createTrigger(body: Record<string, unknown>) {
    const res = await asUser(t, owner, 'POST', '/api/triggers', {
      name: `trigger-${++names}`,
      clusterId,
      ...body,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { _id: string };
  }

  async function write(method: string, path: string, body?: unknown) {
    const res = await asUser(t, owner, method, `/api/v1/data/${path}`, body, headers());
    expect(res.status, await res.clone().text()).toBeLessThan(300);
  }

  const { settled } = triggerRuns(
    () => t,
    () => owner,
  );

  async function receiver(): Promise<Receiver> {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  }

  /** A webhook of the cluster that wants nothing the tests write, so only triggers post to it. */
  async function webhookTo(url: string, delivery: 'http' | 'stream' = 'http') {
    const res = await asUser(
      t,
      owner,
      'POST',
      '/api/v1/data/webhooks',
      { url, events: ['document.deleted'], collection: 'nothing-here', delivery },
      headers(),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as { _id: string; secret: string };
  }

  it('runs the function once per event with the webhook body as input', async () => {
    const fn = await deployFunction(`export default async (event, ctx) => {
      ctx.log(event.type, event.documentId);
      return event.type;
    }`);
    const trigger = await createTrigger({
      source: { type: 'document', events: ['document.created', 'document.deleted'], collection: 'watched' },
      target: { function: fn },
    });
    await write('POST', 'watched', { _id: 'w1' });
    await write('PATCH', 'watched/w1', { a: 1 });
    await write('POST', 'unwatched', { _id: 'u1' });
    await write('DELETE', 'watched/w1');
    const runs = await settled(trigger._id, 2);
    expect(runs.map((r) => [r.status, r.event?.type, r.event?.documentId]).sort()).toEqual([
      ['ok', 'document.created', 'w1'],
      ['ok', 'document.deleted', 'w1'],
    ]);
  });

  it("keeps a trigger's hidden subscription out of the webhook routes", async () => {
    const res = await asUser(t, owner, 'GET', '/api/v1/data/webhooks', undefined, headers());
    expect(res.status).toBe(200);
    const urls = ((await res.json()) as { data: { url: string }[] }).data.map((w) => w.url);
    expect(urls.filter((url) => url.startsWith('trigger:'))).toEqual([]);
  });

  it("runs one document's events in commit order, a retry included, while another document's run meanwhile", async () => {
    // Appends each event's `n` to a log document per item; the first run of item a's first event fails, so its
    // retry comes RETRY_MS later and a's later events must wait for it.
    const fn = await deployFunction(`export default async (event, ctx) => {
      const item = event.data._id;
      let log = null;
      try { log = await ctx.data.get('logs', item); } catch {}
      if (log === null) log = await ctx.data.create('logs', { _id: item, seq: [], failed: false });
      if (item === 'a' && event.data.n === 1 && !log.failed) {
        await ctx.data.update('logs', item, { failed: true });
        throw new Error('the first try fails');
      }
      await ctx.data.update('logs', item, { seq: [...log.seq, event.data.n] });
    }`);
    await createTrigger({
      source: { type: 'document', events: ['document.created', 'document.updated'], collection: 'items' },
      target: { function: fn },
    });
    for (const item of ['a', 'b']) {
      await write('POST', 'items', { _id: item, n: 1 });
      for (let n = 2; n <= 5; n++) await write('PATCH', `items/${item}`, { n });
    }
    const seqOf = async (item: string) => {
      const res = await asUser(t, owner, 'GET', `/api/v1/data/logs/${item}`, undefined, headers());
      return res.status === 200 ? ((await res.json()) as { seq: number[] }).seq : null;
    };
    await vi.waitFor(async () => expect(await seqOf('b')).toEqual([1, 2, 3, 4, 5]), {
      timeout: 30_000,
      interval: 50,
    });
    // b ran to its end while a's first event waited for its retry, and a's later events waited behind it.
    expect(await seqOf('a')).toEqual([]);
    await vi.waitFor(async () => expect(await seqOf('a')).toEqual([1, 2, 3, 4, 5]), {
      timeout: 30_000,
      interval: 50,
    });
  });

  describe('webhook targets', () => {
    it('posts each document event signed with the webhook secret, as the webhook would receive it', async () => {
      const target = await receiver();
      const webhook = await webhookTo(target.url);
      // Without a clusterId the trigger goes to its webhook's cluster, as it would to its function's.
      const res = await asUser(t, owner, 'POST', '/api/triggers', {
        name: 'to-webhook',
        source: { type: 'document', events: ['document.created'], collection: 'hooked' },
        target: { webhook: webhook._id },
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const trigger = (await res.json()) as { _id: string; clusterId: string };
      expect(trigger.clusterId).toBe(clusterId);
      await write('POST', 'hooked', { _id: 'h1', v: 1 });
      const [received] = await target.waitFor(1);
      await expect(verifyAsync(received!.body, received!.headers, webhook.secret)).resolves.toBeUndefined();
      await expect(verifyAsync(`${received!.body} `, received!.headers, webhook.secret)).rejects.toThrow();
      expect(received!.headers['x-webhook-event']).toBe('document.created');
      const body = JSON.parse(received!.body) as { id: string; type: string; documentId: string };
      expect(body).toMatchObject({ type: 'document.created', documentId: 'h1', collection: 'hooked' });
      expect(received!.headers['webhook-id']).toBe(body.id);
      const runs = await settled(trigger._id, 1);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: 'ok', error: null, event: { documentId: 'h1' } });
    });

    it("retries an event the receiver refused, with the webhooks' backoff", async () => {
      const target = await receiver();
      target.answer((n) => ({ status: n === 0 ? 500 : 200 }));
      const webhook = await webhookTo(target.url);
      const trigger = await createTrigger({
        source: { type: 'document', events: ['document.created'], collection: 'flaky' },
        target: { webhook: webhook._id },
      });
      await write('POST', 'flaky', { _id: 'f1' });
      const [first, second] = await target.waitFor(2, 30_000);
      expect(second!.body).toBe(first!.body);
      await expect(verifyAsync(second!.body, second!.headers, webhook.secret)).resolves.toBeUndefined();
      const runs = await settled(trigger._id, 2);
      expect(runs.map((r) => [r.status, r.error])).toEqual([
        ['ok', null],
        ['error', 'receiver answered 500'],
      ]);
    });

    it('posts a manual run as trigger.manual with { manual: true }, signed', async () => {
      const target = await receiver();
      const webhook = await webhookTo(target.url);
      const trigger = await createTrigger({
        source: { type: 'schedule', cron: '0 0 1 1 *' },
        target: { webhook: webhook._id },
      });
      const res = await asUser(t, owner, 'POST', `/api/triggers/${trigger._id}/run`);
      expect(res.status).toBe(202);
      const run = (await res.json()) as { _id: string };
      const [received] = await target.waitFor(1);
      await expect(verifyAsync(received!.body, received!.headers, webhook.secret)).resolves.toBeUndefined();
      expect(JSON.parse(received!.body)).toEqual({ manual: true });
      expect(received!.headers['x-webhook-event']).toBe('trigger.manual');
      expect(received!.headers['webhook-id']).toBe(run._id);
      expect((await settled(trigger._id, 1))[0]).toMatchObject({ status: 'ok', error: null });
    });

    it('refuses a webhook of another cluster with 404 and a stream webhook with 400, storing nothing', async () => {
      const other = await createCluster(t, owner, 'elsewhere');
      await vi.waitFor(async () => {
        const res = await asUser(t, owner, 'GET', `/api/clusters/${other._id}`);
        expect(((await res.json()) as { status: string }).status).toBe('running');
      });
      const foreign = await asUser(
        t,
        owner,
        'POST',
        '/api/v1/data/webhooks',
        { url: (await receiver()).url, events: ['*'] },
        { 'x-cluster-id': other._id },
      );
      expect(foreign.status).toBe(201);
      const foreignId = ((await foreign.json()) as { _id: string })._id;
      const stream = await webhookTo('http://127.0.0.1:9/forwarded', 'stream');
      const source = { type: 'document', events: ['document.created'] };
      for (const [webhook, status] of [
        [foreignId, 404],
        [stream._id, 400],
        ['wh_missing', 404],
      ] as const) {
        const res = await asUser(t, owner, 'POST', '/api/triggers', {
          name: 'refused-target',
          clusterId,
          source,
          target: { webhook },
        });
        expect(res.status, await res.clone().text()).toBe(status);
      }
      const list = await asUser(t, owner, 'GET', `/api/triggers?clusterId=${clusterId}&limit=1000`);
      const listed = ((await list.json()) as { data: { name: string }[] }).data.map((x) => x.name);
      expect(listed).not.toContain('refused-target');
    });
  });
});
