import {
  type ChangeEvent,
  ChangeStreamGoneError,
  DataPlatform,
  PermissionDeniedError,
  type SubscribeOptions,
} from '@dataplatform/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type TestServer } from './helpers.js';

interface Order {
  n: number;
}

/** Takes `count` changes from the subscription, then stops reading (which closes the connection). */
async function take(
  changes: AsyncIterable<ChangeEvent<Order>>,
  count: number,
): Promise<ChangeEvent<Order>[]> {
  const taken: ChangeEvent<Order>[] = [];
  for await (const change of changes) {
    taken.push(change);
    if (taken.length === count) break;
  }
  return taken;
}

/** Resolves once the subscription is connected. */
function opened(): { options: Pick<SubscribeOptions, 'onOpen'>; ready: Promise<void> } {
  let ready!: () => void;
  const promise = new Promise<void>((resolve) => (ready = resolve));
  return { options: { onOpen: () => ready() }, ready: promise };
}

/** `client.data.subscribe()` against the reference server: order, resumption, reconnection, errors. */
forEachEngine((server) => {
  let t: TestServer;
  let client: DataPlatform;
  beforeAll(() => {
    t = server();
    client = new DataPlatform({ baseUrl: t.url, apiKey: t.devKey, maxRetries: 0 });
  });

  describe('client.data.subscribe', () => {
    it("yields the collection's changes in order, and resumes after `since`", async () => {
      const { options, ready } = opened();
      const first = take(client.data.subscribe<Order>('sdk_changes', options), 3);
      await ready;
      await client.data.create('sdk_changes', { _id: 'a', n: 1 });
      await client.data.create('sdk_changes_other', { _id: 'x', n: 0 });
      await client.data.update('sdk_changes', 'a', { n: 2 });
      await client.data.delete('sdk_changes', 'a');
      const changes = await first;
      expect(changes.map((c) => [c.type, c.documentId, c.data.n])).toEqual([
        ['document.created', 'a', 1],
        ['document.updated', 'a', 2],
        ['document.deleted', 'a', 2],
      ]);
      expect(changes[1]!.previous?.n).toBe(1);

      await client.data.create('sdk_changes', { _id: 'b', n: 3 });
      const resumed = await take(client.data.subscribe<Order>('sdk_changes', { since: changes[0]!.id }), 3);
      expect(resumed.map((c) => c.id)).toEqual([changes[1]!.id, changes[2]!.id, expect.any(String)]);
      expect(resumed[2]!.documentId).toBe('b');
    });

    it('reconnects by itself after a drop and misses nothing written in between', async () => {
      // A stream that must hear something every 300 ms drops between the server's keep-alives (15 s).
      let drops = 0;
      let dropped!: () => void;
      const firstDrop = new Promise<void>((resolve) => (dropped = resolve));
      const { options, ready } = opened();
      const changes = take(
        client.data.subscribe<Order>('sdk_changes_drop', {
          ...options,
          idleTimeout: 300,
          onDrop: () => {
            drops++;
            dropped();
          },
        }),
        3,
      );
      await ready;
      await client.data.create('sdk_changes_drop', { n: 1 });
      await firstDrop;
      await client.data.create('sdk_changes_drop', { n: 2 });
      await client.data.create('sdk_changes_drop', { n: 3 });
      expect((await changes).map((c) => c.data.n)).toEqual([1, 2, 3]);
      expect(drops).toBeGreaterThan(0);
    });

    it('ends with ChangeStreamGoneError for an id the server does not keep', async () => {
      const gone = take(client.data.subscribe<Order>('sdk_changes', { since: 'evt_never_was' }), 1);
      await expect(gone).rejects.toBeInstanceOf(ChangeStreamGoneError);
    });

    it('rejects at once for a key that may not read', async () => {
      const { apiKey } = await t.addKey({ scopes: ['data:write'] });
      const writer = client.withOptions({ apiKey });
      await expect(take(writer.data.subscribe<Order>('sdk_changes'), 1)).rejects.toBeInstanceOf(
        PermissionDeniedError,
      );
    });
  });
});
