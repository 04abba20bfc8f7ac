import { describe, expect, it } from 'vitest';
import { crashServer } from './crash-server.js';
import { availableEngines } from './helpers.js';

const BATCH_SIZE = 200;
const SENDERS = 8;
const PAYLOAD = 'x'.repeat(400);

/** Every document of the collection, read page by page, counted by the batch that wrote it. */
async function countByBatch(
  url: string,
  apiKey: string,
): Promise<{ counts: Map<number, number>; total: number }> {
  const counts = new Map<number, number>();
  let total = 0;
  for (let skip = 0; ; skip += 1000) {
    const res = await fetch(`${url}/api/v1/data/crash?limit=1000&skip=${skip}`, {
      headers: { 'x-api-key': apiKey },
    });
    const page = (await res.json()) as { data: { batch: number }[]; total: number };
    total = page.total;
    for (const doc of page.data) counts.set(doc.batch, (counts.get(doc.batch) ?? 0) + 1);
    if (page.data.length < 1000) return { counts, total };
  }
}

describe.each(availableEngines())('transactional batches across a crash on %s', (engine) => {
  it('finds every batch wholly present or wholly absent after SIGKILL, and every acknowledged one present', async () => {
    const server = await crashServer(engine, 'dataplatform-crash-');
    try {
      const { apiKey } = server;
      const acknowledged = new Set<number>();
      const sent = new Set<number>();
      let next = 0;
      let killed = false;
      const send = async (k: number) => {
        const operations = Array.from({ length: BATCH_SIZE }, (_, i) => ({
          op: 'insert',
          collection: 'crash',
          data: { batch: k, i, payload: PAYLOAD },
        }));
        const res = await fetch(`${server.url}/api/v1/data/batch`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ transaction: true, operations }),
        });
        if (res.status !== 200) throw new Error(`batch ${k} answered ${res.status}: ${await res.text()}`);
        acknowledged.add(k);
      };
      const senders = Array.from({ length: SENDERS }, async () => {
        while (!killed) {
          const k = next++;
          sent.add(k);
          // A batch in flight when the process dies fails with a connection error; that is the point.
          await send(k).catch((error: Error) => {
            if (!killed) throw error;
          });
        }
      });
      while (acknowledged.size < 20) await new Promise((resolve) => setTimeout(resolve, 5));
      killed = true;
      await server.kill();
      await Promise.all(senders);

      await server.restart();
      const { counts, total } = await countByBatch(server.url, apiKey);
      for (const [k, count] of counts) expect(count, `batch ${k}`).toBe(BATCH_SIZE);
      for (const k of acknowledged) expect(counts.get(k), `acknowledged batch ${k}`).toBe(BATCH_SIZE);
      expect(total).toBe(counts.size * BATCH_SIZE);
      // Batches were still in flight at the kill: some of them were lost whole or kept whole, never in part.
      expect(sent.size).toBeGreaterThan(acknowledged.size);
    } finally {
      await server.close();
    }
  }, 120_000);
});
