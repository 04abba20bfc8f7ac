import { describe, expect, it } from 'vitest';
import { BadRequestError, type ChangeEvent, ChangeStreamGoneError, DataPlatform } from '../src/index.js';
import { useMockedApi } from './mocked-api.js';

const { baseUrl, mocks, seen } = useMockedApi();

async function take<T extends object>(changes: AsyncIterable<ChangeEvent<T>>, count: number) {
  const taken: ChangeEvent<T>[] = [];
  for await (const change of changes) {
    taken.push(change);
    if (taken.length === count) break;
  }
  return taken;
}

/**
 * `client.data.subscribe()` over the mocks, whose change stream answers with the events kept after
 * `Last-Event-ID` and ends: every event after the first comes through a reconnection that resumes by id.
 */
describe('client.data.subscribe', () => {
  const client = new DataPlatform({ baseUrl, apiKey: mocks.apiKey, maxRetries: 0 });

  it('yields changes written after it opened, resuming by id across the reconnections, each once', async () => {
    let opens = 0;
    let opened!: () => void;
    const first = new Promise<void>((resolve) => (opened = resolve));
    const changes = take(
      client.data.subscribe<{ n: number }>('orders', {
        onOpen: () => {
          opens++;
          opened();
        },
      }),
      4,
    );
    await first;
    await client.data.create('orders', { _id: 'a', n: 1 });
    await client.data.create('elsewhere', { n: 0 });
    await client.data.update('orders', 'a', { n: 2 });
    await client.data.create('orders', { _id: 'b', n: 3 });
    await client.data.delete('orders', 'a');
    const got = await changes;
    expect(got.map((c) => [c.type, c.documentId])).toEqual([
      ['document.created', 'a'],
      ['document.updated', 'a'],
      ['document.created', 'b'],
      ['document.deleted', 'a'],
    ]);
    expect(got[1]!.previous).toMatchObject({ n: 1 });
    expect(opens).toBeGreaterThan(1);
    const streams = seen.filter((line) => line.startsWith('GET /api/v1/data/orders/changes'));
    expect(streams.length).toBe(opens);
  });

  it('resumes after `since` in a later subscription', async () => {
    const start = await startOf('orders');
    await client.data.create('orders', { _id: 'a', n: 1 });
    const [created] = await take(client.data.subscribe('orders', { since: start }), 1);
    expect(created!.documentId).toBe('a');
    await client.data.create('orders', { _id: 'b', n: 2 });
    const [next] = await take(client.data.subscribe('orders', { since: created!.id }), 1);
    expect(next!.documentId).toBe('b');
  });

  it('keeps the changes whose document matches `where`, and refuses a bad condition at once', async () => {
    let opened!: () => void;
    const ready = new Promise<void>((resolve) => (opened = resolve));
    const paid = take(
      client.data.subscribe<{ status: string }>('orders', {
        where: 'status = ?',
        params: ['paid'],
        onOpen: () => opened(),
      }),
      2,
    );
    await ready;
    await client.data.create('orders', { _id: 'a', status: 'open' });
    await client.data.create('orders', { _id: 'b', status: 'paid' });
    await client.data.update('orders', 'a', { status: 'paid' });
    expect((await paid).map((c) => [c.type, c.documentId])).toEqual([
      ['document.created', 'b'],
      ['document.updated', 'a'],
    ]);
    await expect(take(client.data.subscribe('orders', { where: 'status = = ?' }), 1)).rejects.toBeInstanceOf(
      BadRequestError,
    );
  });

  it('ends with ChangeStreamGoneError for an id that is not kept', async () => {
    await expect(take(client.data.subscribe('orders', { since: 'evt_unknown' }), 1)).rejects.toBeInstanceOf(
      ChangeStreamGoneError,
    );
  });

  /** The start id a new stream sends, taken before the writes it should replay. */
  async function startOf(collection: string): Promise<string> {
    const res = await fetch(`${baseUrl}/api/v1/data/${collection}/changes`, {
      headers: { 'x-api-key': mocks.apiKey },
    });
    return /^id: (.+)$/m.exec(await res.text())![1]!;
  }
});
