import { describe, expect, it } from 'vitest';
import { forEachEngine } from './helpers.js';
import { openStream, started } from './webhooks/event-stream.js';

/** The event (the body a webhook receiver gets) of each sent server-sent event. */
function eventsOf(
  sent: { data?: string }[],
): { id: string; type: string; documentId: string; collection: string }[] {
  return sent.map((event) => JSON.parse(event.data!));
}

forEachEngine((t) => {
  const changesOf = (collection: string) => `${t().url}/api/v1/data/${collection}/changes`;

  describe('the change stream of a collection', () => {
    it("sends the collection's events, in order per document, as a webhook receiver gets them", async () => {
      const stream = await openStream(changesOf('live'), { 'x-api-key': t().devKey });
      expect(stream.status).toBe(200);
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      // The body ends with the connection: no chunk framing around each write.
      expect(stream.transferEncoding).toBeUndefined();
      await started(stream);

      await t().call('POST', '/api/v1/data/live', { body: { _id: 'a', n: 1 } });
      await t().call('POST', '/api/v1/data/other', { body: { _id: 'x' } });
      await t().call('POST', '/api/v1/data/live', { body: { _id: 'b', n: 1 } });
      await t().call('PATCH', '/api/v1/data/live/a', { body: { n: 2 } });
      await t().call('DELETE', '/api/v1/data/live/b');
      await t().call('DELETE', '/api/v1/data/live/a');

      const sent = await stream.waitFor(5);
      const events = eventsOf(sent);
      expect(events.every((event) => event.collection === 'live')).toBe(true);
      for (const [i, event] of sent.entries()) {
        expect(event.id).toBe(events[i]!.id);
        expect(event.event).toBe(events[i]!.type);
      }
      const ofDocument = (id: string) => events.filter((e) => e.documentId === id).map((e) => e.type);
      expect(ofDocument('a')).toEqual(['document.created', 'document.updated', 'document.deleted']);
      expect(ofDocument('b')).toEqual(['document.created', 'document.deleted']);
      // Nothing of another collection, nor anything more.
      await t().call('POST', '/api/v1/data/other', { body: { _id: 'y' } });
      await t().call('POST', '/api/v1/data/live', { body: { _id: 'c' } });
      const [last] = eventsOf((await stream.waitFor(6)).slice(5));
      expect(last!.documentId).toBe('c');
      stream.close();
    });

    it('resumes after Last-Event-ID (or ?since=) without a gap or a duplicate', async () => {
      const first = await openStream(changesOf('resumed'), { 'x-api-key': t().devKey });
      await started(first);
      for (const id of ['r1', 'r2', 'r3'])
        await t().call('POST', '/api/v1/data/resumed', { body: { _id: id } });
      const sent = await first.waitFor(3);
      first.close();

      // Written while no stream is open.
      await t().call('POST', '/api/v1/data/resumed', { body: { _id: 'r4' } });
      const resumed = await openStream(changesOf('resumed'), {
        'x-api-key': t().devKey,
        'last-event-id': sent[1]!.id!,
      });
      expect(resumed.resumePoints).toEqual([]);
      await t().call('POST', '/api/v1/data/resumed', { body: { _id: 'r5' } });
      expect(eventsOf(await resumed.waitFor(3)).map((e) => e.documentId)).toEqual(['r3', 'r4', 'r5']);
      resumed.close();

      const since = await openStream(`${changesOf('resumed')}?since=${encodeURIComponent(sent[2]!.id!)}`, {
        'x-api-key': t().devKey,
      });
      expect(eventsOf(await since.waitFor(2)).map((e) => e.documentId)).toEqual(['r4', 'r5']);
      since.close();
    });

    it('sends an error event and closes for an id that is not kept', async () => {
      // An event id never sent, and a start from before the kept history (its events may be forgotten).
      for (const id of ['evt_never_sent', 'start_2000-01-01T00:00:00.000Z']) {
        const stream = await openStream(changesOf('gone'), { 'x-api-key': t().devKey, 'last-event-id': id });
        expect(stream.status).toBe(200);
        await stream.ended;
        expect(stream.events).toHaveLength(1);
        expect(stream.events[0]!.event).toBe('error');
        expect(JSON.parse(stream.events[0]!.data!).code).toBe('gone');
      }
    });

    it('needs data:read, refuses reserved collections and stays out of the webhook list', async () => {
      const { apiKey } = await t().addKey({ scopes: ['data:write'] });
      const refused = await t().call('GET', '/api/v1/data/live/changes', { key: apiKey });
      expect(refused.status).toBe(403);
      expect((await refused.json()).code).toBe('insufficient_scope');

      const reserved = await t().call('GET', '/api/v1/data/_system/changes');
      expect(reserved.status).toBe(400);

      // A stream makes its collection's hidden subscription; the webhook routes never show it.
      const stream = await openStream(changesOf('hidden'), { 'x-api-key': t().devKey });
      await started(stream);
      stream.close();
      const webhooks = await (await t().call('GET', '/api/v1/data/webhooks')).json();
      expect(webhooks.data.filter((w: { url: string }) => w.url.startsWith('changes:'))).toEqual([]);
    });
  });
});
