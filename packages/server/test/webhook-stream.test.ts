import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine } from './helpers.js';
import { openStream } from './webhooks/event-stream.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';
import { hexSignatureValid, standardSignatureValid } from './webhooks/signatures.js';

forEachEngine((t) => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  describe('the event stream', () => {
    it('streams the subscription’s events with the body and signed headers of their delivery', async () => {
      const { _id, secret } = await (
        await t().call('POST', '/api/v1/data/webhooks', {
          body: { url: receiver.url, events: ['document.created'], collection: 'streamed' },
        })
      ).json();
      const stream = await openStream(`${t().url}/api/v1/data/webhooks/${_id}/events`, {
        'x-api-key': t().devKey,
      });
      expect(stream.status).toBe(200);
      expect(stream.contentType).toMatch(/^text\/event-stream/);

      for (const n of [1, 2, 3]) await t().call('POST', '/api/v1/data/streamed', { body: { _id: `s${n}` } });
      await t().call('POST', '/api/v1/data/unstreamed', { body: { _id: 'u1' } });
      const sent = await stream.waitFor(3);
      const messages = sent.map((event) => JSON.parse(event.data!));
      expect(messages.map((m) => JSON.parse(m.body).documentId)).toEqual(['s1', 's2', 's3']);
      for (const [i, event] of sent.entries()) {
        const { body, headers } = messages[i];
        expect(event.event).toBe('document.created');
        expect(event.id).toBe(JSON.parse(body).id);
        expect(headers['x-webhook-id']).toBe(event.id);
        const asDelivered = { path: '/', headers, body };
        expect(hexSignatureValid(asDelivered, secret)).toBe(true);
        expect(standardSignatureValid(asDelivered, secret)).toBe(true);
      }
      stream.close();

      // Resuming with Last-Event-ID sends what was captured after that event, also while no one listened.
      await t().call('POST', '/api/v1/data/streamed', { body: { _id: 's4' } });
      const resumed = await openStream(`${t().url}/api/v1/data/webhooks/${_id}/events`, {
        'x-api-key': t().devKey,
        'last-event-id': sent[1]!.id!,
      });
      const again = await resumed.waitFor(2);
      expect(again.map((event) => JSON.parse(JSON.parse(event.data!).body).documentId)).toEqual(['s3', 's4']);
      resumed.close();
    });

    it('starts a new stream with an id alone, from which a client resumes before any event came', async () => {
      const { _id } = await (
        await t().call('POST', '/api/v1/data/webhooks', {
          body: { url: receiver.url, events: ['document.created'], collection: 'early' },
        })
      ).json();
      const url = `${t().url}/api/v1/data/webhooks/${_id}/events`;
      const first = await openStream(url, { 'x-api-key': t().devKey });
      const deadline = Date.now() + 10_000;
      while (first.resumePoints.length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      first.close();
      expect(first.resumePoints).toEqual([expect.stringMatching(/^start_\d{4}-\d\d-\d\dT/)]);

      // Captured while no stream is open and before the first stream saw any event.
      await t().call('POST', '/api/v1/data/early', { body: { _id: 'e1' } });
      const resumed = await openStream(url, {
        'x-api-key': t().devKey,
        'last-event-id': first.resumePoints[0]!,
      });
      const [event] = await resumed.waitFor(1);
      expect(JSON.parse(JSON.parse(event!.data!).body).documentId).toBe('e1');
      expect(resumed.resumePoints).toEqual([]);
      resumed.close();

      // A start id from the future, or one that is no time at all, starts a new stream from now.
      for (const id of ['start_2999-01-01T00:00:00.000Z', 'start_soon']) {
        const fresh = await openStream(url, { 'x-api-key': t().devKey, 'last-event-id': id });
        while (fresh.resumePoints.length === 0 && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 20));
        expect(fresh.resumePoints).toHaveLength(1);
        expect(fresh.events).toEqual([]);
        fresh.close();
      }
    });

    it('answers 404 for an unknown webhook and needs the webhooks:manage scope', async () => {
      const unknown = await t().call('GET', '/api/v1/data/webhooks/wh_unknown/events');
      expect(unknown.status).toBe(404);
      expect((await unknown.json()).code).toBe('not_found');
      const { apiKey } = await t().addKey({ scopes: ['data:read'] });
      const refused = await t().call('GET', '/api/v1/data/webhooks/wh_unknown/events', { key: apiKey });
      expect(refused.status).toBe(403);
    });
  });
});
