import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  DataPlatform,
  NotFoundError,
  type WebhookStreamEvent,
} from '@dataplatform/sdk';
import { Agent, fetch as undiciFetch } from 'undici';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

/** Takes `count` events from the stream, then stops reading (which closes the connection). */
async function take(stream: AsyncIterable<WebhookStreamEvent>, count: number): Promise<WebhookStreamEvent[]> {
  const events: WebhookStreamEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    if (events.length === count) break;
  }
  return events;
}

/** `client.webhooks.stream()` against the reference server: signed events, resumption, errors. */
forEachEngine((server) => {
  let t: TestServer;
  let client: DataPlatform;
  beforeAll(() => {
    t = server();
    client = new DataPlatform({ baseUrl: t.url, apiKey: t.devKey, maxRetries: 0 });
  });

  describe('client.webhooks.stream', () => {
    it('yields each event with a body and headers that verify, and resumes after lastEventId', async () => {
      const { _id, secret } = await client.webhooks.create({
        // Deliveries to the subscription's address go on beside the stream; a name that never resolves
        // keeps them away from anything real.
        url: 'https://sdk-stream.invalid/hooks',
        events: ['document.created', 'document.deleted'],
        collection: 'sdk_streamed',
      });
      // The stream starts from the moment it is opened: writes wait for onOpen.
      let opened!: () => void;
      const open = new Promise<void>((resolve) => {
        opened = resolve;
      });
      const first = take(client.webhooks.stream(_id, { onOpen: () => opened() }), 3);
      await open;
      await client.data.create('sdk_streamed', { _id: 'a' });
      await client.data.create('elsewhere', { _id: 'x' });
      await client.data.create('sdk_streamed', { _id: 'b' });
      await client.data.delete('sdk_streamed', 'a');
      const events = await first;
      expect(events.map((e) => [e.type, JSON.parse(e.message.body).documentId])).toEqual([
        ['document.created', 'a'],
        ['document.created', 'b'],
        ['document.deleted', 'a'],
      ]);
      for (const event of events) {
        expect(JSON.parse(event.message.body).id).toBe(event.id);
        expect(event.message.headers['x-webhook-id']).toBe(event.id);
        await expect(client.webhooks.verify(event.message.body, event.message.headers, secret)).resolves.toBe(
          undefined,
        );
      }
      await expect(
        client.webhooks.verify(events[0]!.message.body, events[0]!.message.headers, 'whsec_other'),
      ).rejects.toThrow();

      // Written while nobody listened, replayed from the event after the one named.
      await client.data.create('sdk_streamed', { _id: 'c' });
      const resumed = await take(client.webhooks.stream(_id, { lastEventId: events[0]!.id }), 3);
      expect(resumed.map((e) => JSON.parse(e.message.body).documentId)).toEqual(['b', 'a', 'c']);
      await client.webhooks.delete(_id);
    });

    it('rejects with NotFoundError for an unknown subscription', async () => {
      await expect(take(client.webhooks.stream('wh_unknown'), 1)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('ends with APIUserAbortError when the signal aborts, and with a timeout when the server goes silent', async () => {
      // After an aborted stream undici opens a spare connection that sends no request, and the server's close
      // waits for it; a pool of the test's own, destroyed at the end, takes it away.
      const agent = new Agent();
      onTestFinished(() => agent.destroy());
      const own = client.withOptions({
        fetch: (url, init) => undiciFetch(url, { ...init, dispatcher: agent } as never) as never,
      });
      const { _id } = await own.webhooks.create({ url: 'https://sdk-stream.invalid/hooks', events: ['*'] });
      const controller = new AbortController();
      const aborted = take(own.webhooks.stream(_id, { signal: controller.signal }), 1);
      setTimeout(() => controller.abort(), 200);
      await expect(aborted).rejects.toBeInstanceOf(APIUserAbortError);
      // The keep-alive comes every 15 s, so a stream that must hear something within 300 ms gives up.
      await expect(take(own.webhooks.stream(_id, { idleTimeout: 300 }), 1)).rejects.toBeInstanceOf(
        APIConnectionTimeoutError,
      );
      await own.webhooks.delete(_id);
    });
  });
});
