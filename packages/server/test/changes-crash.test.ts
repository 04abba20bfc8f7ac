import { describe, expect, it } from 'vitest';
import { crashServer } from './crash-server.js';
import { availableEngines } from './helpers.js';
import { openStream, started } from './webhooks/event-stream.js';

describe.each(availableEngines())('a change stream across a crash on %s', (engine) => {
  it('resumes after SIGKILL with every acknowledged write, without a gap or a duplicate', async () => {
    const server = await crashServer(engine, 'dataplatform-changes-crash-');
    try {
      const { apiKey } = server;
      const changes = () => `${server.url}/api/v1/data/crashed/changes`;
      const stream = await openStream(changes(), { 'x-api-key': apiKey });
      await started(stream);

      // Writes go on while the process is killed; the ones answered 201 are acknowledged.
      const acknowledged: string[] = [];
      let killed = false;
      const writer = (async () => {
        for (let n = 0; !killed; n++) {
          const res = await fetch(`${server.url}/api/v1/data/crashed`, {
            method: 'POST',
            headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
            body: JSON.stringify({ _id: `d${String(n).padStart(5, '0')}` }),
          }).catch(() => null);
          if (res?.status === 201) acknowledged.push(`d${String(n).padStart(5, '0')}`);
        }
      })();
      while (stream.events.length < 50) await new Promise((resolve) => setTimeout(resolve, 5));
      killed = true;
      await server.kill();
      await writer;
      await stream.ended;
      const before = stream.events.map((event) => JSON.parse(event.data!).documentId as string);
      const lastId = stream.events.at(-1)!.id!;

      await server.restart();
      const resumed = await openStream(changes(), { 'x-api-key': apiKey, 'last-event-id': lastId });
      expect(resumed.status).toBe(200);
      // Every write acknowledged before the crash is in the stream, once; a write that died in flight may or may
      // not be (it is then stored and sent, or neither).
      const stored = (await (
        await fetch(`${server.url}/api/v1/data/crashed?limit=1000`, { headers: { 'x-api-key': apiKey } })
      ).json()) as { total: number };
      const after = await resumed.waitFor(stored.total - before.length);
      resumed.close();
      const all = [...before, ...after.map((event) => JSON.parse(event.data!).documentId as string)];
      expect(new Set(all).size).toBe(all.length);
      expect(all).toHaveLength(stored.total);
      for (const id of acknowledged) expect(all).toContain(id);
      // One writer, one document after another: the stream keeps their order.
      expect(all).toEqual([...all].sort());
    } finally {
      await server.close();
    }
  }, 150_000);
});
