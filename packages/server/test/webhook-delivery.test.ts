import { afterEach, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';
import { hexSignatureValid, standardSignatureValid } from './webhooks/signatures.js';

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

interface Subscription {
  _id: string;
  secret: string;
}

// Retries 50 ms apart (three of them), so the retry tests take a fraction of a second.
forEachEngine(
  (t) => {
    const receivers: Receiver[] = [];
    const subscriptions: string[] = [];
    afterEach(async () => {
      for (const id of subscriptions.splice(0)) await t().call('DELETE', `/api/v1/data/webhooks/${id}`);
      for (const receiver of receivers.splice(0)) await receiver.close();
    });

    async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
      const started = await startReceiver(...args);
      receivers.push(started);
      return started;
    }

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

    const deliveries = async (id: string) =>
      (await json('GET', `/api/v1/data/webhooks/${id}/deliveries`)).body.data as {
        _id: string;
        status: string;
        attempts: number;
        eventId: string;
        eventType: string;
      }[];

    /** The deliveries once every one of them has left `pending`. */
    const settled = (id: string, count: number) =>
      eventually(async () => {
        const list = await deliveries(id);
        return list.length === count && list.every((d) => d.status !== 'pending') ? list : undefined;
      });

    describe('delivery', () => {
      it('delivers every event kind once, signed in both schemes', async () => {
        const hook = await receiver();
        const { _id, secret } = await subscribe({
          url: `${hook.url}/in`,
          events: ['*'],
          collection: 'kinds',
        });
        const created = (await json('POST', '/api/v1/data/kinds', { n: 1 })).body;
        const replaced = (await json('PUT', `/api/v1/data/kinds/${created._id}`, { n: 2 })).body;
        const patched = (await json('PATCH', `/api/v1/data/kinds/${created._id}`, { m: 3 })).body;
        await json('DELETE', `/api/v1/data/kinds/${created._id}`);
        await json('POST', '/api/v1/data/elsewhere', { n: 1 });
        const got = await hook.waitFor(4);
        await settled(_id, 4);
        expect(hook.received).toHaveLength(4);

        const events = got.map((r) => JSON.parse(r.body)).sort((a, b) => (a.id < b.id ? -1 : 1));
        expect(events.map((e) => e.type)).toEqual([
          'document.created',
          'document.updated',
          'document.updated',
          'document.deleted',
        ]);
        expect(new Set(events.map((e) => e.id)).size).toBe(4);
        for (const event of events) {
          expect(event).toMatchObject({ collection: 'kinds', documentId: created._id });
          expect(event.id).toMatch(/^evt_/);
          expect(Date.parse(event.createdAt)).not.toBeNaN();
        }
        expect(events[0].data).toEqual(created);
        expect(events[0]).not.toHaveProperty('previous');
        expect(events[1]).toMatchObject({ data: replaced, previous: created });
        expect(events[2]).toMatchObject({ data: patched, previous: replaced });
        expect(events[3].data).toEqual(patched);
        expect(events[3]).not.toHaveProperty('previous');

        for (const request of got) {
          const event = JSON.parse(request.body);
          expect(request.path).toBe('/in');
          expect(request.headers['content-type']).toBe('application/json');
          expect(request.headers['x-webhook-id']).toBe(event.id);
          expect(request.headers['webhook-id']).toBe(event.id);
          expect(request.headers['x-webhook-event']).toBe(event.type);
          const timestamp = Number(request.headers['x-webhook-timestamp']);
          expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
          expect(request.headers['webhook-timestamp']).toBe(String(timestamp));
          expect(request.headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);
          expect(hexSignatureValid(request, secret)).toBe(true);
          expect(standardSignatureValid(request, secret)).toBe(true);
          expect(hexSignatureValid(request, `${secret}x`)).toBe(false);
          expect(standardSignatureValid({ ...request, body: `${request.body} ` }, secret)).toBe(false);
        }
      });

      it('delivers only the kinds and the collection a subscription names', async () => {
        const hook = await receiver();
        await subscribe({ url: hook.url, events: ['document.deleted'], collection: 'picky' });
        const doc = (await json('POST', '/api/v1/data/picky', { n: 1 })).body;
        await json('PATCH', `/api/v1/data/picky/${doc._id}`, { n: 2 });
        const other = (await json('POST', '/api/v1/data/notpicky', { n: 1 })).body;
        await json('DELETE', `/api/v1/data/notpicky/${other._id}`);
        await json('DELETE', `/api/v1/data/picky/${doc._id}`);
        const [only] = await hook.waitFor(1);
        expect(JSON.parse(only!.body)).toMatchObject({ type: 'document.deleted', documentId: doc._id });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(hook.received).toHaveLength(1);
      });

      it('signs with a secret of the caller’s own: hex always, Standard Webhooks when it is base64', async () => {
        const hook = await receiver();
        const plain = await subscribe({
          url: hook.url,
          events: ['*'],
          collection: 'ownsecret',
          secret: 'not base64 but long enough',
        });
        await json('POST', '/api/v1/data/ownsecret', { n: 1 });
        const [request] = await hook.waitFor(1);
        expect(hexSignatureValid(request!, plain.secret)).toBe(true);
        expect(request!.headers['webhook-signature']).toBeUndefined();
        expect(request!.headers['x-webhook-id']).toBeDefined();
      });
    });

    describe('idempotent writes', () => {
      it('delivers a write once when it is replayed with its Idempotency-Key', async () => {
        const hook = await receiver();
        const { _id } = await subscribe({ url: hook.url, events: ['*'], collection: 'replayed' });
        const send = () =>
          t().call('POST', '/api/v1/data/replayed', {
            body: { n: 1 },
            headers: { 'idempotency-key': 'once' },
          });
        const first = await send();
        const again = await send();
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(await again.json()).toEqual(await first.json());
        await hook.waitFor(1);
        await settled(_id, 1);
        expect(hook.received).toHaveLength(1);
      });
    });

    describe('batches', () => {
      it('delivers one event per successful operation of a batch, none for failed ones', async () => {
        const hook = await receiver();
        const { _id } = await subscribe({ url: hook.url, events: ['*'], collection: 'batched' });
        await json('POST', '/api/v1/data/batched', { _id: 'taken', n: 0 });
        await hook.waitFor(1);
        const { status, body } = await json('POST', '/api/v1/data/batch', {
          operations: [
            { op: 'insert', collection: 'batched', id: 'b1', data: { n: 1 } },
            { op: 'insert', collection: 'batched', id: 'taken', data: { n: 2 } },
            { op: 'patch', collection: 'batched', id: 'b1', data: { n: 3 } },
            { op: 'delete', collection: 'batched', id: 'missing' },
            { op: 'get', collection: 'batched', id: 'b1' },
            { op: 'delete', collection: 'batched', id: 'taken' },
          ],
        });
        expect(status).toBe(200);
        expect(body.results.map((r: { status: number }) => r.status)).toEqual([201, 409, 200, 404, 200, 200]);
        const got = (await hook.waitFor(4)).slice(1).map((r) => JSON.parse(r.body));
        await settled(_id, 4);
        expect(hook.received).toHaveLength(4);
        expect(got.map((e) => `${e.type} ${e.documentId}`).sort()).toEqual([
          'document.created b1',
          'document.deleted taken',
          'document.updated b1',
        ]);
        const patch = got.find((e) => e.type === 'document.updated');
        expect(patch.previous).toMatchObject({ _id: 'b1', n: 1 });
        expect(patch.data).toMatchObject({ _id: 'b1', n: 3 });
      });

      it('delivers nothing for a transactional batch that aborted', async () => {
        const hook = await receiver();
        const { _id } = await subscribe({ url: hook.url, events: ['*'], collection: 'aborted' });
        const { status } = await json('POST', '/api/v1/data/batch', {
          transaction: true,
          operations: [
            { op: 'insert', collection: 'aborted', id: 'a1', data: { n: 1 } },
            { op: 'patch', collection: 'aborted', id: 'a1', data: { n: 2 } },
            { op: 'delete', collection: 'aborted', id: 'nope' },
          ],
        });
        expect(status).toBe(409);
        // A write after it is delivered; the aborted batch's three operations never are.
        await json('POST', '/api/v1/data/aborted', { _id: 'after' });
        const [only] = await hook.waitFor(1);
        expect(JSON.parse(only!.body).documentId).toBe('after');
        await settled(_id, 1);
        expect(hook.received).toHaveLength(1);
      });
    });

    describe('retries and attempts', () => {
      it('gets the event to a receiver that fails three times, with every attempt recorded', async () => {
        const hook = await receiver((n) => ({ status: n < 3 ? 500 : 204 }));
        const { _id } = await subscribe({ url: hook.url, events: ['*'], collection: 'flaky' });
        await json('POST', '/api/v1/data/flaky', { n: 1 });
        const got = await hook.waitFor(4);
        expect(new Set(got.map((r) => r.body)).size).toBe(1);
        expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
        const [delivery] = await settled(_id, 1);
        expect(delivery).toMatchObject({ status: 'succeeded', attempts: 4, lastResponseStatus: 204 });
        const attempts = (
          await json('GET', `/api/v1/data/webhooks/${_id}/deliveries/${delivery!._id}/attempts`)
        ).body.data;
        expect(attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4]);
        expect(attempts.map((a: { status: string }) => a.status)).toEqual([
          'failed',
          'failed',
          'failed',
          'succeeded',
        ]);
        expect(attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([
          500, 500, 500, 204,
        ]);
        for (const failed of attempts.slice(0, 3)) {
          expect(failed.error).toBe('receiver answered 500');
          expect(Date.parse(failed.nextAttemptAt)).toBeGreaterThan(Date.parse(failed.startedAt));
        }
        expect(attempts[3]).toMatchObject({ error: null, nextAttemptAt: null });
        expect(hook.received).toHaveLength(4);
      });

      it('fails a delivery after the last retry and tells the cluster owner', async () => {
        const hook = await receiver(() => ({ status: 503 }));
        const { _id } = await subscribe({ url: hook.url, events: ['*'], collection: 'down' });
        const doc = (await json('POST', '/api/v1/data/down', { n: 1 })).body;
        const [delivery] = await settled(_id, 1);
        expect(delivery).toMatchObject({ status: 'failed', attempts: 4, nextAttemptAt: null });
        // The notice is raised just after the delivery is marked failed.
        await expect
          .poll(() => notifications(t()), NOTICE_WAIT)
          .toContainEqual(
            expect.objectContaining({
              kind: 'webhook_failing',
              data: expect.objectContaining({ webhookId: _id, deliveryId: delivery!._id, attempts: 4 }),
            }),
          );
        expect(JSON.parse(hook.received[0]!.body).documentId).toBe(doc._id);
      });

      it('disables a subscription whose receiver answers 410 Gone', async () => {
        const hook = await receiver(() => ({ status: 410 }));
        const { _id } = await subscribe({ url: hook.url, events: ['*'], collection: 'gone' });
        await json('POST', '/api/v1/data/gone', { n: 1 });
        const [delivery] = await settled(_id, 1);
        expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
        const list = (await json('GET', '/api/v1/data/webhooks')).body.data;
        expect(list.find((w: { _id: string }) => w._id === _id)).toMatchObject({ active: false });
        await json('POST', '/api/v1/data/gone', { n: 2 });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(hook.received).toHaveLength(1);
        expect(await deliveries(_id)).toHaveLength(1);
        await expect
          .poll(() => notifications(t()), NOTICE_WAIT)
          .toContainEqual(
            expect.objectContaining({
              kind: 'webhook_disabled',
              data: expect.objectContaining({ webhookId: _id }),
            }),
          );
      });

      it('does not follow redirects: a 3xx is a failed attempt', async () => {
        const target = await receiver();
        const hook = await receiver(() => ({ status: 302, headers: { location: `${target.url}/moved` } }));
        const { _id } = await subscribe({ url: hook.url, events: ['*'], collection: 'moved' });
        await json('POST', '/api/v1/data/moved', { n: 1 });
        const [delivery] = await settled(_id, 1);
        expect(delivery).toMatchObject({ status: 'failed', attempts: 4, lastResponseStatus: 302 });
        const attempts = (
          await json('GET', `/api/v1/data/webhooks/${_id}/deliveries/${delivery!._id}/attempts`)
        ).body.data;
        expect(attempts[0].error).toMatch(/redirects are not followed/);
        expect(hook.received).toHaveLength(4);
        expect(target.received).toHaveLength(0);
      });

      it('records why an attempt got no answer at all', async () => {
        const closed = await receiver();
        const url = closed.url;
        await closed.close();
        receivers.splice(receivers.indexOf(closed), 1);
        const { _id } = await subscribe({ url, events: ['*'], collection: 'nobody' });
        await json('POST', '/api/v1/data/nobody', { n: 1 });
        const [delivery] = await settled(_id, 1);
        expect(delivery).toMatchObject({ status: 'failed', lastResponseStatus: null });
        expect((delivery as unknown as { lastError: string }).lastError).toMatch(/ECONNREFUSED/);
      });
    });

    describe('re-send', () => {
      it('sends a delivered event again with the same id and body', async () => {
        const hook = await receiver();
        const { _id } = await subscribe({ url: hook.url, events: ['*'], collection: 'again' });
        await json('POST', '/api/v1/data/again', { n: 1 });
        const [delivery] = await settled(_id, 1);
        const resent = await json('POST', `/api/v1/data/webhooks/${_id}/deliveries/${delivery!._id}/resend`);
        expect(resent.status).toBe(202);
        expect(resent.body).toMatchObject({ _id: delivery!._id, status: 'pending', attempts: 1 });
        const [first, second] = await hook.waitFor(2);
        expect(second!.body).toBe(first!.body);
        expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
        const after = await eventually(async () => {
          const [d] = await deliveries(_id);
          return d?.attempts === 2 ? d : undefined;
        });
        expect(after.status).toBe('succeeded');
      });

      it('gives a failed delivery one more attempt without starting its retries again', async () => {
        const hook = await receiver(() => ({ status: 500 }));
        const { _id } = await subscribe({ url: hook.url, events: ['*'], collection: 'onemore' });
        await json('POST', '/api/v1/data/onemore', { n: 1 });
        const [delivery] = await settled(_id, 1);
        expect(delivery!.attempts).toBe(4);
        await json('POST', `/api/v1/data/webhooks/${_id}/deliveries/${delivery!._id}/resend`);
        const [again] = await settled(_id, 1).then(() =>
          eventually(async () => {
            const list = await deliveries(_id);
            return list[0]?.attempts === 5 && list[0].status === 'failed' ? list : undefined;
          }),
        );
        expect(again!.attempts).toBe(5);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(hook.received).toHaveLength(5);
      });

      it('answers 404 for an unknown delivery or webhook', async () => {
        const hook = await receiver();
        const { _id } = await subscribe({ url: hook.url, events: ['*'], collection: 'unknown' });
        for (const path of [
          `/api/v1/data/webhooks/${_id}/deliveries/dlv_nope/resend`,
          '/api/v1/data/webhooks/wh_nope/deliveries/dlv_nope/resend',
        ]) {
          const res = await json('POST', path);
          expect(res.status).toBe(404);
          expect(res.body.code).toBe('not_found');
        }
        const attempts = await json('GET', `/api/v1/data/webhooks/${_id}/deliveries/dlv_nope/attempts`);
        expect(attempts.status).toBe(404);
        expect((await json('GET', '/api/v1/data/webhooks/wh_nope/deliveries')).status).toBe(404);
      });

      it('lists deliveries newest first, by state and page', async () => {
        const hook = await receiver();
        const { _id } = await subscribe({ url: hook.url, events: ['*'], collection: 'paged' });
        for (let n = 0; n < 3; n++) await json('POST', '/api/v1/data/paged', { n });
        await settled(_id, 3);
        const page = (await json('GET', `/api/v1/data/webhooks/${_id}/deliveries?limit=2&skip=1`)).body;
        expect(page).toMatchObject({ total: 3, limit: 2, skip: 1 });
        expect(page.data).toHaveLength(2);
        const all = await deliveries(_id);
        expect(page.data.map((d: { _id: string }) => d._id)).toEqual(all.slice(1).map((d) => d._id));
        expect(all.map((d) => d._id)).toEqual([...all.map((d) => d._id)].sort().reverse());
        const none = (await json('GET', `/api/v1/data/webhooks/${_id}/deliveries?status=failed`)).body;
        expect(none).toMatchObject({ data: [], total: 0 });
        const bad = await json('GET', `/api/v1/data/webhooks/${_id}/deliveries?status=lost`);
        expect(bad.status).toBe(400);
      });
    });
  },
  { config: { webhookRetrySchedule: [50, 50, 50], webhookPollInterval: 200 } },
);

/** How long a test waits for a notice raised after the delivery it is about (a loaded machine is slow). */
const NOTICE_WAIT = { timeout: 10_000 };

/** The development account's notifications. */
async function notifications(server: TestServer) {
  const { rows } = await server.server.storage.notifications.list(server.server.devAccount!.userId, {
    limit: 100,
    skip: 0,
  });
  return rows;
}
