import { get, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { forEachEngine } from './helpers.js';
import { openStream, type Sent } from './webhooks/event-stream.js';

/** Written documents are this large, so that a few dozen events outgrow the operating system's socket buffers. */
const FILLER = 'x'.repeat(400_000);
const DOCUMENTS = 40;

/** Parses server-sent events out of text. */
function eventsIn(text: string): Sent[] {
  return text
    .split('\n\n')
    .map((block) => {
      const event: Sent = {};
      for (const line of block.split('\n')) {
        const at = line.indexOf(': ');
        const field = line.slice(0, at);
        if (at > 0 && (field === 'id' || field === 'event' || field === 'data'))
          event[field] = line.slice(at + 2);
      }
      return event;
    })
    .filter((event) => event.data);
}

forEachEngine(
  (t) => {
    describe('a change stream whose reader falls behind', () => {
      it('is cut off with an error event naming the last id sent, and resumes from it without a gap', async () => {
        const request = get(`${t().url}/api/v1/data/slow/changes`, { headers: { 'x-api-key': t().devKey } });
        const response = await new Promise<IncomingMessage>((resolve) => request.on('response', resolve));
        expect(response.statusCode).toBe(200);
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        const ended = new Promise((resolve) => response.on('close', resolve));
        while (!text.includes('id: start_')) await new Promise((resolve) => setTimeout(resolve, 20));
        // From here on the reader takes nothing: what the server writes piles up in its socket.
        response.pause();

        for (let i = 0; i < DOCUMENTS; i++) {
          const res = await t().call('POST', '/api/v1/data/slow', { body: { _id: `d${i}`, i, FILLER } });
          expect(res.status).toBe(201);
        }
        // The server counts the stream out once it cuts the reader off; until then a second stream of the key
        // is over the limit of one. Small writes go on meanwhile, so that the server has something to send.
        let written = DOCUMENTS;
        const deadline = Date.now() + 60_000;
        for (;;) {
          const second = await openStream(`${t().url}/api/v1/data/slow/changes`, { 'x-api-key': t().devKey });
          second.close();
          if (second.status === 200) break;
          expect(second.status).toBe(429);
          expect(Date.now()).toBeLessThan(deadline);
          await t().call('POST', '/api/v1/data/slow', { body: { _id: `d${written}`, i: written++ } });
          await new Promise((resolve) => setTimeout(resolve, 200));
        }

        response.resume();
        await ended;
        const events = eventsIn(text);
        const error = events.at(-1)!;
        expect(error.event).toBe('error');
        const { code, lastEventId } = JSON.parse(error.data!);
        expect(code).toBe('too_slow');
        const sent = events.slice(0, -1);
        expect(sent.length).toBeLessThan(written);
        expect(lastEventId).toBe(sent.at(-1)!.id);

        const resumed = await openStream(`${t().url}/api/v1/data/slow/changes`, {
          'x-api-key': t().devKey,
          'last-event-id': lastEventId,
        });
        const rest = await resumed.waitFor(written - sent.length);
        resumed.close();
        const ids = [...sent, ...rest].map((event) => JSON.parse(event.data!).documentId);
        expect(ids).toEqual(Array.from({ length: written }, (_, i) => `d${i}`));
      });
    });
  },
  { config: { maxStreams: 1 } },
);
