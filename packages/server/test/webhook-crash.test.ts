import { describe, expect, it } from 'vitest';
import { crashServer } from './crash-server.js';
import { availableEngines } from './helpers.js';
import { startReceiver } from './webhooks/receiver.js';

const SENDERS = 6;

/** The ids of every document of the collection. */
async function documentIds(url: string, apiKey: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let skip = 0; ; skip += 1000) {
    const res = await fetch(`${url}/api/v1/data/crashed?limit=1000&skip=${skip}`, {
      headers: { 'x-api-key': apiKey },
    });
    const page = (await res.json()) as { data: { _id: string }[] };
    for (const doc of page.data) ids.add(doc._id);
    if (page.data.length < 1000) return ids;
  }
}

describe.each(availableEngines())('webhook events across a crash on %s', (engine) => {
  it('delivers the event of every write acknowledged before SIGKILL after the restart, and no other', async () => {
    // Until the crash the receiver fails every attempt, so the events are still to deliver when the server dies.
    let up = false;
    const receiver = await startReceiver(() => ({ status: up ? 200 : 503 }));
    const server = await crashServer(engine, 'dataplatform-webhook-crash-', {
      DATAPLATFORM_WEBHOOK_RETRY_SCHEDULE: Array(9).fill('200ms').join(','),
      DATAPLATFORM_WEBHOOK_POLL_INTERVAL: '200',
    });
    try {
      const { apiKey } = server;
      const post = (path: string, body: unknown) =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const created = await post('/api/v1/data/webhooks', {
        url: receiver.url,
        events: ['document.created'],
        collection: 'crashed',
      });
      expect(created.status).toBe(201);

      const acknowledged = new Set<string>();
      let killed = false;
      let n = 0;
      const senders = Array.from({ length: SENDERS }, async (_, sender) => {
        while (!killed) {
          const k = n++;
          // Single inserts and small batches, both kinds of write.
          const write =
            sender % 2 === 0
              ? post('/api/v1/data/crashed', { _id: `single-${k}` }).then(async (res) => {
                  if (res.status !== 201) throw new Error(`insert answered ${res.status}`);
                  return [`single-${k}`];
                })
              : post('/api/v1/data/batch', {
                  operations: [0, 1, 2].map((i) => ({
                    op: 'insert',
                    collection: 'crashed',
                    id: `batch-${k}-${i}`,
                    data: {},
                  })),
                }).then(async (res) => {
                  if (res.status !== 200) throw new Error(`batch answered ${res.status}`);
                  return [0, 1, 2].map((i) => `batch-${k}-${i}`);
                });
          // A write in flight when the process dies fails with a connection error; that is the point.
          const ids = await write.catch((error: Error) => {
            if (!killed) throw error;
            return [];
          });
          for (const id of ids) acknowledged.add(id);
        }
      });
      while (acknowledged.size < 150) await new Promise((resolve) => setTimeout(resolve, 5));
      killed = true;
      await server.kill();
      await Promise.all(senders);
      const deliveredBeforeCrash = receiver.received.length;

      up = true;
      await server.restart();
      const stored = await documentIds(server.url, apiKey);
      for (const id of acknowledged) expect(stored.has(id), `acknowledged ${id}`).toBe(true);

      // Every stored document's event arrives (deliveries claimed when the process died come due after their lease).
      const delivered = new Set<string>();
      const deadline = Date.now() + 60_000;
      while (delivered.size < stored.size && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        for (const request of receiver.received.slice(deliveredBeforeCrash)) {
          delivered.add(JSON.parse(request.body).documentId);
        }
      }
      expect(delivered).toEqual(stored);
      expect(deliveredBeforeCrash).toBeGreaterThan(0);
    } finally {
      await server.close();
      await receiver.close();
    }
  }, 150_000);
});
