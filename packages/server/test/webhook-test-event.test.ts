import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BadRequestError, DataPlatform, NotFoundError } from '@dataplatform/sdk';
import { verifyAsync } from '@dataplatform/webhooks';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { type RunningServer, startServer } from '../src/index.js';
import { createTestDatabase, forEachEngine } from './helpers.js';
import { openStream } from './webhooks/event-stream.js';
import { type Answerer, type Received, type Receiver, startReceiver } from './webhooks/receiver.js';
import { hexSignatureValid, standardSignatureValid } from './webhooks/signatures.js';

interface Subscription {
  _id: string;
  secret: string;
}

interface Delivery {
  _id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  collection: string;
  documentId: string;
  status: string;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string | null;
}

const BASE = '/api/v1/data/webhooks';

/** Checks both signature schemes of a delivery the way a receiver would, with @dataplatform/webhooks. */
async function expectVerified(request: Pick<Received, 'headers' | 'body'>, secret: string): Promise<void> {
  await expect(verifyAsync(request.body, request.headers, secret)).resolves.toBeUndefined();
  expect(hexSignatureValid({ path: '/', ...request }, secret)).toBe(true);
  expect(standardSignatureValid({ path: '/', ...request }, secret)).toBe(true);
  await expect(verifyAsync(`${request.body} `, request.headers, secret)).rejects.toThrow();
}

// Retries 50 ms apart (three of them), so the retry test takes a fraction of a second.
forEachEngine(
  (t) => {
    const receivers: Receiver[] = [];
    const subscriptions: string[] = [];
    afterEach(async () => {
      for (const id of subscriptions.splice(0)) await t().call('DELETE', `${BASE}/${id}`);
      for (const receiver of receivers.splice(0)) await receiver.close();
    });

    async function receiver(answerer?: Answerer): Promise<Receiver> {
      const started = await startReceiver(answerer);
      receivers.push(started);
      return started;
    }

    async function subscribe(body: Record<string, unknown>): Promise<Subscription> {
      const res = await t().call('POST', BASE, { body });
      expect(res.status, await res.clone().text()).toBe(201);
      const created = (await res.json()) as Subscription;
      subscriptions.push(created._id);
      return created;
    }

    const json = async (method: string, path: string, body?: unknown, key?: string) => {
      const res = await t().call(method, path, { body, key });
      return { status: res.status, body: await res.json() };
    };

    const sendTest = (id: string, body?: unknown, key?: string) =>
      json('POST', `${BASE}/${id}/test`, body, key);

    const deliveries = async (id: string) =>
      (await json('GET', `${BASE}/${id}/deliveries`)).body as { data: Delivery[]; total: number };

    /** The subscription's only delivery once it has left `pending`. */
    const settledDelivery = async (id: string) => {
      await expect
        .poll(async () => (await deliveries(id)).data.map((d) => d.status), { timeout: 10_000 })
        .toEqual([expect.not.stringMatching(/^pending$/)]);
      return (await deliveries(id)).data[0]!;
    };

    describe('test events', () => {
      it('sends one signed test event to the target subscription alone, and writes no document', async () => {
        const target = await receiver();
        const bystander = await receiver();
        const { _id, secret } = await subscribe({
          url: `${target.url}/hooks`,
          events: ['document.updated', 'document.deleted'],
          collection: 'orders',
        });
        const other = await subscribe({ url: bystander.url, events: ['*'] });
        const sameCollection = await subscribe({ url: bystander.url, events: ['*'], collection: 'orders' });

        const before = Date.now();
        const sent = await t().call('POST', `${BASE}/${_id}/test`);
        expect(sent.status).toBe(202);
        const delivery = (await sent.json()) as Delivery;
        expect(delivery).toMatchObject({
          webhookId: _id,
          eventType: 'document.updated',
          collection: 'orders',
          status: 'pending',
          attempts: 0,
          lastAttemptAt: null,
        });
        expect(delivery._id).toMatch(/^dlv_/);
        expect(delivery.eventId).toMatch(/^evt_/);
        expect(delivery.documentId).toMatch(/^test_[0-9A-Z]{26}$/);
        expect(Date.parse(delivery.nextAttemptAt!)).toBeLessThanOrEqual(Date.now());
        expect(Date.parse(delivery.createdAt)).toBeGreaterThanOrEqual(before - 1_000);

        const [request] = await target.waitFor(1);
        expect(request!.path).toBe('/hooks');
        expect(request!.headers['x-webhook-id']).toBe(delivery.eventId);
        expect(request!.headers['webhook-id']).toBe(delivery.eventId);
        expect(request!.headers['x-webhook-event']).toBe('document.updated');
        await expectVerified(request!, secret);
        const event = JSON.parse(request!.body);
        expect(event).toEqual({
          id: delivery.eventId,
          type: 'document.updated',
          createdAt: delivery.createdAt,
          collection: 'orders',
          documentId: delivery.documentId,
          data: expect.objectContaining({ _id: delivery.documentId, example: true }),
          previous: expect.objectContaining({ _id: delivery.documentId, example: true }),
          test: true,
        });
        expect(Date.parse(event.data._createdAt)).not.toBeNaN();
        expect(event.data._updatedAt).toBe(event.data._createdAt);
        expect(event.previous).not.toEqual(event.data);

        const settled = await settledDelivery(_id);
        expect(settled).toMatchObject({ _id: delivery._id, status: 'succeeded', attempts: 1 });
        const attempts = await json('GET', `${BASE}/${_id}/deliveries/${delivery._id}/attempts`);
        expect(attempts.body.data).toEqual([
          expect.objectContaining({ attempt: 1, status: 'succeeded', responseStatus: 200, error: null }),
        ]);

        // Long enough for a delivery to the other subscriptions to show up, had one been made.
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect(target.received).toHaveLength(1);
        expect(bystander.received).toHaveLength(0);
        for (const id of [other._id, sameCollection._id]) expect((await deliveries(id)).total).toBe(0);
        const stored = await json('GET', `/api/v1/data/orders/${delivery.documentId}`);
        expect(stored.status).toBe(404);
        expect((await json('GET', '/api/v1/data/orders')).body.total).toBe(0);
      });

      it('takes the kind and collection asked for, and fills in what is left out', async () => {
        const hook = await receiver();
        const { _id, secret } = await subscribe({ url: hook.url, events: ['*'] });
        const defaulted = await sendTest(_id, {});
        expect(defaulted.status).toBe(202);
        expect(defaulted.body).toMatchObject({ eventType: 'document.created', collection: 'test' });
        const asked = await sendTest(_id, { type: 'document.deleted', collection: 'invoices' });
        expect(asked.status).toBe(202);
        expect(asked.body).toMatchObject({ eventType: 'document.deleted', collection: 'invoices' });

        const got = await hook.waitFor(2);
        const events = got.map((request) => JSON.parse(request.body));
        const byType = new Map(events.map((event) => [event.type, event]));
        expect(byType.get('document.created')).toMatchObject({ collection: 'test', test: true });
        expect(byType.get('document.deleted')).toMatchObject({
          id: asked.body.eventId,
          collection: 'invoices',
          documentId: asked.body.documentId,
          data: { _id: asked.body.documentId, example: true },
          test: true,
        });
        for (const event of events) expect(event).not.toHaveProperty('previous');
        for (const request of got) await expectVerified(request, secret);
        expect((await deliveries(_id)).data.map((d) => d._id)).toEqual([asked.body._id, defaulted.body._id]);

        // A subscription that names kinds gets the first of them by default.
        const picky = await subscribe({ url: hook.url, events: ['document.deleted', 'document.created'] });
        expect((await sendTest(picky._id)).body.eventType).toBe('document.deleted');
      });

      it('retries a failed test event, records each attempt and re-sends it on request', async () => {
        const hook = await receiver((n) => ({ status: n === 0 ? 500 : 200 }));
        const { _id, secret } = await subscribe({ url: hook.url, events: ['document.created'] });
        const { body: delivery } = await sendTest(_id);
        const got = await hook.waitFor(2);
        expect(got.map((request) => request.headers['x-webhook-id'])).toEqual([
          delivery.eventId,
          delivery.eventId,
        ]);
        expect(got[1]!.body).toBe(got[0]!.body);
        expect(await settledDelivery(_id)).toMatchObject({ status: 'succeeded', attempts: 2 });
        const attempts = await json('GET', `${BASE}/${_id}/deliveries/${delivery._id}/attempts`);
        expect(attempts.body.data).toEqual([
          expect.objectContaining({ attempt: 1, status: 'failed', responseStatus: 500 }),
          expect.objectContaining({ attempt: 2, status: 'succeeded', responseStatus: 200 }),
        ]);

        const resent = await json('POST', `${BASE}/${_id}/deliveries/${delivery._id}/resend`);
        expect(resent.status).toBe(202);
        const [, , again] = await hook.waitFor(3);
        expect(again!.headers['x-webhook-id']).toBe(delivery.eventId);
        expect(again!.body).toBe(got[0]!.body);
        await expectVerified(again!, secret);
      });

      it('reaches an open event stream of the subscription, signed for forwarding', async () => {
        const hook = await receiver();
        const { _id, secret } = await subscribe({ url: hook.url, events: ['*'], collection: 'streamed' });
        const stream = await openStream(`${t().url}${BASE}/${_id}/events`, { 'x-api-key': t().devKey });
        try {
          expect(stream.status).toBe(200);
          const { body: delivery } = await sendTest(_id, { type: 'document.updated' });
          const [sent] = await stream.waitFor(1);
          expect(sent).toMatchObject({ id: delivery.eventId, event: 'document.updated' });
          const { body, headers } = JSON.parse(sent!.data!);
          expect(JSON.parse(body)).toMatchObject({
            id: delivery.eventId,
            collection: 'streamed',
            documentId: delivery.documentId,
            test: true,
          });
          await expectVerified({ headers, body }, secret);
          // Delivery to the subscription's address goes on as usual.
          const [request] = await hook.waitFor(1);
          expect(request!.body).toBe(body);
        } finally {
          stream.close();
        }
      });

      it('refuses a kind or collection the subscription would not get, and makes no delivery', async () => {
        const hook = await receiver();
        const { _id } = await subscribe({
          url: hook.url,
          events: ['document.created'],
          collection: 'orders',
        });
        const cases: [unknown, string, string | undefined][] = [
          [{ type: 'document.deleted' }, 'validation_error', 'type'],
          [{ collection: 'invoices' }, 'validation_error', 'collection'],
          [{ type: 'document.exploded' }, 'validation_error', 'type'],
          [{ collection: 'not a name!' }, 'validation_error', 'collection'],
          [[{ type: 'document.created' }], 'invalid_body', undefined],
        ];
        for (const [body, code, field] of cases) {
          const res = await sendTest(_id, body);
          expect(res.status, JSON.stringify(body)).toBe(400);
          expect(res.body.code).toBe(code);
          if (field) expect(res.body.details.field).toBe(field);
        }
        const wrongKind = await sendTest(_id, { type: 'document.deleted' });
        expect(wrongKind.body.error).toMatch(/does not subscribe to document\.deleted/);
        const wrongCollection = await sendTest(_id, { collection: 'invoices' });
        expect(wrongCollection.body.error).toMatch(/covers only the collection "orders"/);
        expect((await deliveries(_id)).total).toBe(0);
        expect(hook.received).toHaveLength(0);
      });

      it('answers 404 for an unknown subscription and for another cluster’s, and needs webhooks:manage', async () => {
        const hook = await receiver();
        const { _id } = await subscribe({ url: hook.url, events: ['*'] });
        const unknown = await sendTest('wh_unknown');
        expect(unknown.status).toBe(404);
        expect(unknown.body).toMatchObject({ code: 'not_found', details: { webhookId: 'wh_unknown' } });
        const theirs = await sendTest(_id, {}, t().other.apiKey);
        expect(theirs.status).toBe(404);
        expect(theirs.body.code).toBe('not_found');
        const { apiKey } = await t().addKey({ scopes: ['data:read', 'data:write'] });
        expect((await sendTest(_id, {}, apiKey)).status).toBe(403);
        expect((await deliveries(_id)).total).toBe(0);
      });

      it('refuses a subscription its receiver disabled with 410 Gone', async () => {
        const hook = await receiver(() => ({ status: 410 }));
        const { _id } = await subscribe({ url: hook.url, events: ['*'] });
        expect((await sendTest(_id)).status).toBe(202);
        await expect
          .poll(
            async () => (await json('GET', BASE)).body.data.find((s: Subscription) => s._id === _id).active,
            { timeout: 10_000 },
          )
          .toBe(false);
        const refused = await sendTest(_id);
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({ code: 'validation_error', details: { active: false } });
        expect((await deliveries(_id)).total).toBe(1);
      });

      it('is client.webhooks.test in the SDK', async () => {
        const hook = await receiver();
        const { _id, secret } = await subscribe({ url: hook.url, events: ['*'], collection: 'sdk' });
        const client = new DataPlatform({ baseUrl: t().url, apiKey: t().devKey, maxRetries: 0 });
        const delivery = await client.webhooks.test(_id, { type: 'document.deleted' });
        expect(delivery).toMatchObject({ webhookId: _id, eventType: 'document.deleted', collection: 'sdk' });
        const [request] = await hook.waitFor(1);
        await expect(
          client.webhooks.verify(request!.body, request!.headers, secret),
        ).resolves.toBeUndefined();
        expect(JSON.parse(request!.body)).toMatchObject({ id: delivery.eventId, test: true });
        const listed = await client.webhooks.deliveries(_id);
        expect(listed.data.map((d) => d._id)).toEqual([delivery._id]);
        await expect(client.webhooks.test(_id, { collection: 'other' })).rejects.toBeInstanceOf(
          BadRequestError,
        );
        await expect(client.webhooks.test('wh_unknown')).rejects.toBeInstanceOf(NotFoundError);
      });
    });
  },
  { config: { webhookRetrySchedule: [50, 50, 50], webhookPollInterval: 200 } },
);

/**
 * On PostgreSQL, a test event sent through an instance that does not deliver (it lacks the key of the secrets)
 * wakes the worker of another instance at once, as a captured write does: that worker polls only once a minute.
 */
describe.skipIf(!inject('postgresUrl'))('test events with several instances on PostgreSQL', () => {
  const servers: RunningServer[] = [];
  const dirs: string[] = [];
  let drop: (() => Promise<void>) | undefined;
  let hook: Receiver | undefined;
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await hook?.close();
    await drop?.();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is delivered by another instance, woken by the announcement', async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    const start = async (encryptionKey: string) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'dataplatform-webhook-test-'));
      dirs.push(dataDir);
      const server = await startServer({
        port: 0,
        host: '127.0.0.1',
        dataDir,
        databaseUrl: database.url,
        logLevel: 'fatal',
        encryptionKey,
        webhookPollInterval: 60_000,
      });
      servers.push(server);
      return server;
    };
    const key = randomBytes(32).toString('base64');
    const delivering = await start(key);
    const keyless = await start(randomBytes(32).toString('base64'));
    expect(keyless.app.webhooks.worker).toBeNull();
    const apiKey = delivering.devAccount!.apiKey;
    const call = (server: RunningServer, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
    hook = await startReceiver();
    const created = await call(delivering, BASE, { url: hook.url, events: ['*'] });
    expect(created.status).toBe(201);
    const { _id, secret } = (await created.json()) as Subscription;
    // Let the worker's first look (at start) pass, so that only an announcement can wake it now.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const sent = await call(keyless, `${BASE}/${_id}/test`, { type: 'document.created' });
    expect(sent.status).toBe(202);
    const delivery = (await sent.json()) as Delivery;
    const [request] = await hook.waitFor(1, 20_000);
    expect(request!.headers['x-webhook-id']).toBe(delivery.eventId);
    await expectVerified(request!, secret);
  }, 60_000);
});
