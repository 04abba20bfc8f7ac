import { describe, expect, it } from 'vitest';
import { crashServer } from './crash-server.js';
import { availableEngines } from './helpers.js';

const SENDERS = 16;
/** Acknowledged writes to wait for before the kill: enough that many groups of concurrent writes have committed. */
const BEFORE_KILL = 600;

/** What one sender had acknowledged when the process died. */
interface Acknowledged {
  inserted: Set<string>;
  deleted: Set<string>;
  /** A delete that was in flight at the kill: its document may be there or not. */
  deleting?: string;
  /** The last value of the sender's counter document the server acknowledged. */
  counter: number;
}

describe.each(availableEngines())('concurrent single writes across a crash on %s', (engine) => {
  it('keeps every acknowledged insert, update and delete after SIGKILL', async () => {
    const server = await crashServer(engine, 'dataplatform-write-crash-');
    try {
      const headers = { 'x-api-key': server.apiKey, 'content-type': 'application/json' };
      const url = (path: string) => `${server.url}/api/v1/data/crash${path}`;
      let killed = false;
      let acknowledgedWrites = 0;
      // A write in flight when the process dies fails with a connection error; any other failure is a defect.
      const write = async (method: string, path: string, body?: object): Promise<boolean> => {
        try {
          const res = await fetch(url(path), {
            method,
            headers,
            ...(body ? { body: JSON.stringify(body) } : {}),
          });
          if (res.status >= 300)
            throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
          await res.arrayBuffer();
          acknowledgedWrites++;
          return true;
        } catch (error) {
          if (killed) return false;
          throw error;
        }
      };
      const senders = Array.from({ length: SENDERS }, async (_, sender) => {
        const acknowledged: Acknowledged = { inserted: new Set(), deleted: new Set(), counter: 0 };
        if (!(await write('POST', '', { _id: `counter-${sender}`, value: 0 }))) return acknowledged;
        for (let n = 1; !killed; n++) {
          // Three kinds of write in turn: an insert, a replace of the counter, a delete of an earlier insert.
          const id = `s${sender}-${n}`;
          if (await write('POST', '', { _id: id, sender, n })) acknowledged.inserted.add(id);
          if (await write('PUT', `/counter-${sender}`, { value: n })) acknowledged.counter = n;
          const old = `s${sender}-${n - 2}`;
          if (n > 2 && n % 2 === 0 && acknowledged.inserted.has(old)) {
            acknowledged.deleting = old;
            if (await write('DELETE', `/${old}`)) acknowledged.deleted.add(old);
            else break;
            acknowledged.deleting = undefined;
          }
        }
        return acknowledged;
      });
      while (acknowledgedWrites < BEFORE_KILL) await new Promise((resolve) => setTimeout(resolve, 5));
      killed = true;
      await server.kill();
      const outcomes = await Promise.all(senders);

      await server.restart();
      const read = async (id: string) => {
        const res = await fetch(url(`/${id}`), { headers });
        return { status: res.status, body: (await res.json()) as { value?: number } };
      };
      for (const [sender, acknowledged] of outcomes.entries()) {
        for (const id of acknowledged.inserted) {
          if (id === acknowledged.deleting) continue;
          expect((await read(id)).status, `insert ${id}`).toBe(acknowledged.deleted.has(id) ? 404 : 200);
        }
        const counter = await read(`counter-${sender}`);
        expect(counter.status).toBe(200);
        // The replace in flight at the kill may have committed unacknowledged: never less than acknowledged.
        expect(counter.body.value, `counter of sender ${sender}`).toBeGreaterThanOrEqual(
          acknowledged.counter,
        );
        expect(counter.body.value).toBeLessThanOrEqual(acknowledged.counter + 1);
      }
      const deletes = outcomes.reduce((sum, o) => sum + o.deleted.size, 0);
      expect(deletes).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 120_000);
});
