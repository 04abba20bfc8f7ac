import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningServer, startServer } from '../src/index.js';
import { createTestDatabase, forEachEngine } from './helpers.js';
import { openStream } from './webhooks/event-stream.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';
import { hexSignatureValid } from './webhooks/signatures.js';

interface Subscription {
  _id: string;
  secret: string;
  url: string;
  delivery: string;
}

interface Delivery {
  _id: string;
  eventId: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
}

/** Polls `check` until it returns a value other than undefined (or fails after `timeoutMs`). */
async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The JSON body of each server-sent event's delivery. */
const bodies = (events: { data?: string }[]) =>
  events.map((event) => JSON.parse(JSON.parse(event.data!).body) as Record<string, unknown>);

// A stream subscription and an http one point at the same live receiver: whatever the worker posts arrives there,
// so a worker that also sent the stream subscription's deliveries would show up as requests on its path.
forEachEngine(
  (t) => {
    let receiver: Receiver;
    const subscriptions: string[] = [];
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterEach(async () => {
      for (const id of subscriptions.splice(0)) await t().call('DELETE', `/api/v1/data/webhooks/${id}`);
      receiver.received.splice(0);
    });
    afterAll(() => receiver?.close());

    async function subscribe(body: Record<string, unknown>): Promise<Subscription> {
      const res = await t().call('POST', '/api/v1/data/webhooks', { body });
      expect(res.status, await res.clone().text()).toBe(201);
      const created = (await res.json()) as Subscription;
      subscriptions.push(created._id);
      return created;
    }

    const json = async (method: string, path: string, body?: unknown) => {
      const res = await t().call(method, path, { body });
      return { status: res.status, body: await res.json() };
    };

    const deliveries = async (id: string, query = '') =>
      (await json('GET', `/api/v1/data/webhooks/${id}/deliveries${query}`)).body as {
        data: Delivery[];
        total: number;
      };

    const stream = (id: string, lastEventId?: string) =>
      openStream(`${t().url}/api/v1/data/webhooks/${id}/events`, {
        'x-api-key': t().devKey,
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      });

    const requestsTo = (path: string) => receiver.received.filter((r) => r.path === path);

    it('streams a write’s event to a stream subscription and never posts it, while an http one gets it', async () => {
      const streamed = await subscribe({
        url: `${receiver.url}/stream`,
        events: ['document.created'],
        collection: 'modes',
        delivery: 'stream',
      });
      const posted = await subscribe({
        url: `${receiver.url}/http`,
        events: ['document.created'],
        collection: 'modes',
      });
      expect(streamed).toMatchObject({ delivery: 'stream', url: `${receiver.url}/stream` });
      expect(posted.delivery).toBe('http');
      const listed = (await json('GET', '/api/v1/data/webhooks')).body.data as Subscription[];
      expect(listed.find((w) => w._id === streamed._id)?.delivery).toBe('stream');
      expect(listed.find((w) => w._id === posted._id)?.delivery).toBe('http');

      const events = await stream(streamed._id);
      expect(events.status).toBe(200);
      expect((await json('POST', '/api/v1/data/modes', { _id: 'm1' })).status).toBe(201);
      const [sent] = await events.waitFor(1);
      events.close();
      const message = JSON.parse(sent!.data!);
      expect(JSON.parse(message.body)).toMatchObject({ type: 'document.created', documentId: 'm1' });
      // Signed with the stream subscription's secret, ready to forward.
      expect(
        hexSignatureValid({ path: '/', headers: message.headers, body: message.body }, streamed.secret),
      ).toBe(true);

      // The same write's delivery to the http subscription is posted and succeeds ...
      const [arrived] = await receiver.waitFor(1);
      expect(arrived!.path).toBe('/http');
      expect(JSON.parse(arrived!.body).documentId).toBe('m1');
      const [done] = await eventually(async () => {
        const { data } = await deliveries(posted._id);
        return data[0]?.status === 'succeeded' ? data : undefined;
      });
      expect(done!.attempts).toBe(1);
      // ... while the stream subscription's, captured in the same transaction, never was.
      expect(requestsTo('/stream')).toEqual([]);

      const page = await deliveries(streamed._id);
      expect(page.total).toBe(1);
      expect(page.data[0]).toMatchObject({
        eventId: sent!.id,
        status: 'streamed',
        attempts: 0,
        nextAttemptAt: null,
        lastAttemptAt: null,
      });
      expect((await deliveries(streamed._id, '?status=streamed')).total).toBe(1);
      expect((await deliveries(streamed._id, '?status=pending')).total).toBe(0);
      const attempts = await json(
        'GET',
        `/api/v1/data/webhooks/${streamed._id}/deliveries/${page.data[0]!._id}/attempts`,
      );
      expect(attempts.body).toEqual({ data: [] });
      // No worker can claim it, whenever it looks.
      const far = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();
      const claimed = await t().server.storage.deliveries.claim(far, far, 1000);
      expect(claimed.filter((d) => d.subscriptionId === streamed._id)).toEqual([]);
    });

    it('refuses to re-send a streamed delivery with 400 validation_error and leaves it as it was', async () => {
      const streamed = await subscribe({
        url: `${receiver.url}/stream`,
        events: ['*'],
        collection: 'resent',
        delivery: 'stream',
      });
      await json('POST', '/api/v1/data/resent', { _id: 'r1' });
      const [delivery] = (await deliveries(streamed._id)).data;
      const resent = await json(
        'POST',
        `/api/v1/data/webhooks/${streamed._id}/deliveries/${delivery!._id}/resend`,
      );
      expect(resent.status).toBe(400);
      expect(resent.body).toMatchObject({
        code: 'validation_error',
        details: { webhookId: streamed._id, deliveryId: delivery!._id, status: 'streamed' },
      });
      expect((await deliveries(streamed._id)).data).toEqual([delivery]);
      const unknown = await json('POST', `/api/v1/data/webhooks/${streamed._id}/deliveries/dlv_none/resend`);
      expect(unknown.status).toBe(404);
    });

    it('sends test events to the stream only, and resumes after a Last-Event-ID', async () => {
      const streamed = await subscribe({
        url: `${receiver.url}/stream`,
        events: ['*'],
        collection: 'tested',
        delivery: 'stream',
      });
      const posted = await subscribe({ url: `${receiver.url}/http`, events: ['*'], collection: 'tested' });
      const events = await stream(streamed._id);
      const test = await json('POST', `/api/v1/data/webhooks/${streamed._id}/test`, {
        type: 'document.updated',
      });
      expect(test.status).toBe(202);
      expect(test.body).toMatchObject({ status: 'streamed', attempts: 0, nextAttemptAt: null });
      const [first] = await events.waitFor(1);
      expect(bodies([first!])[0]).toMatchObject({
        type: 'document.updated',
        test: true,
        collection: 'tested',
      });

      // A test event for the http subscription is claimed and posted by the worker; the stream one never was.
      expect((await json('POST', `/api/v1/data/webhooks/${posted._id}/test`, {})).status).toBe(202);
      const [arrived] = await receiver.waitFor(1);
      expect(arrived!.path).toBe('/http');
      expect(requestsTo('/stream')).toEqual([]);

      for (const id of ['t1', 't2']) await json('POST', '/api/v1/data/tested', { _id: id });
      const three = await events.waitFor(3);
      events.close();
      expect(bodies(three).map((body) => body.documentId)).toEqual([
        expect.stringMatching(/^test_/),
        't1',
        't2',
      ]);

      // Missed while no one listened, and sent on reconnection after the last event seen.
      await json('POST', '/api/v1/data/tested', { _id: 't3' });
      const resumed = await stream(streamed._id, three[1]!.id);
      const again = await resumed.waitFor(2);
      resumed.close();
      expect(bodies(again).map((body) => body.documentId)).toEqual(['t2', 't3']);
      expect((await deliveries(streamed._id, '?status=streamed')).total).toBe(4);
      await receiver.waitFor(4);
      expect(requestsTo('/stream')).toEqual([]);
    });

    it('refuses a delivery mode it does not know', async () => {
      const res = await json('POST', '/api/v1/data/webhooks', {
        url: `${receiver.url}/x`,
        events: ['*'],
        delivery: 'email',
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_error', details: { field: 'delivery' } });
    });
  },
  { config: { webhookPollInterval: 200 } },
);

// A production server: private and loopback receivers are refused.
forEachEngine(
  (t) => {
    describe('receiver addresses', () => {
      it.each(['http://localhost:3000/hooks', 'http://127.0.0.1:8080/in', 'http://192.168.1.10/hook'])(
        'accepts %s for a stream subscription and refuses it for an http one',
        async (url) => {
          const stream = await t().call('POST', '/api/v1/data/webhooks', {
            body: { url, events: ['*'], delivery: 'stream' },
          });
          expect(stream.status).toBe(201);
          expect(await stream.json()).toMatchObject({ url, delivery: 'stream' });
          for (const delivery of ['http', undefined]) {
            const res = await t().call('POST', '/api/v1/data/webhooks', {
              body: { url, events: ['*'], ...(delivery ? { delivery } : {}) },
            });
            expect(res.status).toBe(400);
            const body = await res.json();
            expect(body).toMatchObject({ code: 'validation_error', details: { field: 'url' } });
            expect(body.error).toMatch(/receiver address refused/);
          }
        },
      );

      it('still wants an absolute http(s) address for a stream subscription', async () => {
        for (const url of ['ftp://localhost/hooks', '/hooks']) {
          const res = await t().call('POST', '/api/v1/data/webhooks', {
            body: { url, events: ['*'], delivery: 'stream' },
          });
          expect(res.status).toBe(400);
          expect((await res.json()).details).toMatchObject({ field: 'url' });
        }
      });
    });
  },
  { config: { webhookAllowLoopback: false, webhookAllowPrivate: false } },
);

/** Two instances on one PostgreSQL, each with its delivery worker: neither posts a stream subscription's events. */
describe.skipIf(!inject('postgresUrl'))('a stream subscription with several instances on PostgreSQL', () => {
  let a: RunningServer;
  let b: RunningServer;
  let receiver: Receiver;
  let apiKey: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'dataplatform-stream-mode-')));
    const encryptionKey = randomBytes(32).toString('base64');
    const options = (dataDir: string) => ({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: database.url,
      logLevel: 'fatal',
      encryptionKey,
      webhookPollInterval: 200,
    });
    [a, b] = await Promise.all([startServer(options(dirs[0]!)), startServer(options(dirs[1]!))]);
    apiKey = (a.devAccount ?? b.devAccount)!.apiKey;
    receiver = await startReceiver();
    cleanup = async () => {
      await Promise.all([a, b].map((server) => server?.close()));
      await receiver?.close();
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => cleanup?.());

  const call = (server: RunningServer, method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("streams on one instance what another captured, and no instance's worker posts it", async () => {
    const create = async (path: string, delivery: string) => {
      const res = await call(a, 'POST', '/api/v1/data/webhooks', {
        url: `${receiver.url}${path}`,
        events: ['*'],
        collection: 'shared',
        delivery,
      });
      expect(res.status).toBe(201);
      return (await res.json()) as Subscription;
    };
    const streamed = await create('/stream', 'stream');
    await create('/http', 'http');
    const events = await openStream(`${b.url}/api/v1/data/webhooks/${streamed._id}/events`, {
      'x-api-key': apiKey,
    });
    for (const n of [1, 2, 3]) {
      const server = n % 2 === 0 ? b : a;
      expect((await call(server, 'POST', '/api/v1/data/shared', { _id: `p${n}` })).status).toBe(201);
    }
    const test = await call(a, 'POST', `/api/v1/data/webhooks/${streamed._id}/test`, {});
    expect(test.status).toBe(202);
    const sent = await events.waitFor(4);
    events.close();
    expect(bodies(sent).map((body) => body.documentId)).toEqual([
      'p1',
      'p2',
      'p3',
      expect.stringMatching(/^test_/),
    ]);
    // Every write reached the http subscription once; the stream subscription got nothing over HTTP.
    const arrived = await receiver.waitFor(3);
    expect(arrived.map((r) => JSON.parse(r.body).documentId).sort()).toEqual(['p1', 'p2', 'p3']);
    expect(arrived.every((r) => r.path === '/http')).toBe(true);
  });
});
