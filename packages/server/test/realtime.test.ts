import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { forEachEngine, type TestServer } from './helpers.js';

interface Message {
  type: string;
  id?: string;
  since?: string;
  code?: string;
  lastEventId?: string;
  event?: { id: string; type: string; documentId: string };
}

/** A realtime connection that collects the server's messages. */
async function connect(t: TestServer, headers: Record<string, string> = { 'x-api-key': t.devKey }) {
  const socket = new WebSocket(`${t.url.replace('http', 'ws')}/api/v1/realtime`, { headers });
  const messages: Message[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return {
    messages,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    /** Waits for the first message (after `from`) that satisfies `match`. */
    async next(match: (message: Message) => boolean, from = 0): Promise<Message> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = messages.slice(from).find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no such message in ${JSON.stringify(messages)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => socket.close(),
  };
}

const eventsOf = (messages: Message[], id: string) =>
  messages.filter((m) => m.type === 'event' && m.id === id).map((m) => m.event!.documentId);

forEachEngine((t) => {
  describe('GET /api/v1/realtime', () => {
    it('carries several subscriptions, each with its own collection and filter, tagged with its id', async () => {
      const live = await connect(t());
      live.send({ type: 'subscribe', id: 'all', collection: 'rt' });
      live.send({ type: 'subscribe', id: 'big', collection: 'rt', where: 'n > ?', params: [5] });
      live.send({ type: 'subscribe', id: 'other', collection: 'rt_other' });
      for (const id of ['all', 'big', 'other'])
        await live.next((m) => m.type === 'subscribed' && m.id === id);
      await t().call('POST', '/api/v1/data/rt', { body: { _id: 'a', n: 1 } });
      await t().call('POST', '/api/v1/data/rt_other', { body: { _id: 'x' } });
      await t().call('POST', '/api/v1/data/rt', { body: { _id: 'b', n: 9 } });
      await live.next((m) => m.type === 'event' && m.id === 'all' && m.event!.documentId === 'b');
      await live.next((m) => m.type === 'event' && m.id === 'big');
      await live.next((m) => m.type === 'event' && m.id === 'other');
      expect(eventsOf(live.messages, 'all')).toEqual(['a', 'b']);
      expect(eventsOf(live.messages, 'big')).toEqual(['b']);
      expect(eventsOf(live.messages, 'other')).toEqual(['x']);

      // Unsubscribed: nothing more of it.
      live.send({ type: 'unsubscribe', id: 'all' });
      await live.next((m) => m.type === 'unsubscribed' && m.id === 'all');
      await t().call('POST', '/api/v1/data/rt', { body: { _id: 'c', n: 7 } });
      await live.next((m) => m.type === 'event' && m.id === 'big' && m.event!.documentId === 'c');
      expect(eventsOf(live.messages, 'all')).toEqual(['a', 'b']);
      live.close();
    });

    it('resumes a subscription from since without a gap or a duplicate', async () => {
      const first = await connect(t());
      first.send({ type: 'subscribe', id: 's', collection: 'rt_resume' });
      await first.next((m) => m.type === 'subscribed');
      for (const id of ['r1', 'r2']) await t().call('POST', '/api/v1/data/rt_resume', { body: { _id: id } });
      const r1 = await first.next((m) => m.type === 'event' && m.event!.documentId === 'r1');
      await first.next((m) => m.type === 'event' && m.event!.documentId === 'r2');
      first.close();
      await t().call('POST', '/api/v1/data/rt_resume', { body: { _id: 'r3' } });
      const again = await connect(t());
      again.send({ type: 'subscribe', id: 's', collection: 'rt_resume', since: r1.event!.id });
      await again.next((m) => m.type === 'event' && m.event!.documentId === 'r3');
      expect(eventsOf(again.messages, 's')).toEqual(['r2', 'r3']);
      again.close();
    });

    it('answers errors per subscription, and refuses messages it cannot read', async () => {
      const live = await connect(t());
      live.send({ type: 'subscribe', id: 'bad', collection: 'rt', where: 'n >' });
      expect(await live.next((m) => m.id === 'bad')).toMatchObject({ type: 'error', code: 'invalid_sql' });
      live.send({ type: 'subscribe', id: 'reserved', collection: '_system' });
      expect((await live.next((m) => m.id === 'reserved')).type).toBe('error');
      live.send({ type: 'subscribe', id: 'old', collection: 'rt', since: 'evt_never_sent' });
      expect(await live.next((m) => m.id === 'old')).toMatchObject({ type: 'error', code: 'gone' });
      const before = live.messages.length;
      live.send({ type: 'watch' });
      expect(await live.next((m) => m.type === 'error' && !m.id, before)).toMatchObject({
        code: 'validation_error',
      });
      live.close();
    });

    it('needs a credential with data:read at the upgrade, and answers 426 without one', async () => {
      await expect(connect(t(), {})).rejects.toThrow(/401/);
      const { apiKey } = await t().addKey({ scopes: ['data:write'] });
      await expect(connect(t(), { 'x-api-key': apiKey })).rejects.toThrow(/403/);
      const plain = await t().call('GET', '/api/v1/realtime');
      expect(plain.status).toBe(426);
      expect((await plain.json()).code).toBe('upgrade_required');
    });
  });
});
