import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, startTestServer, type TestServer } from './helpers.js';

/**
 * The postgres driver runs with patches/postgres@3.4.9.patch: its queues (waiting queries, and the open, busy and
 * reserved connections) must look only at the entries still queued when one leaves from the middle, and must not
 * keep the slots of shifted entries while they never empty, or every query under load costs a scan of all the
 * queries served before it (docs/deployment.md, "The postgres driver's patch").
 */

interface DriverQueue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
type QueueFactory = <T>(initial?: T[]) => DriverQueue<T>;

const require = createRequire(import.meta.url);
// `require` resolves the package's CommonJS entry, cjs/src/index.js; the package root is two folders up.
const driverRoot = join(dirname(require.resolve('postgres')), '..', '..');
const manifest = JSON.parse(readFileSync(join(driverRoot, 'package.json'), 'utf8')) as {
  exports: { import: string };
};

/** Both copies Node can load: the ESM one the server imports, and the CommonJS one. */
const copies: Array<[string, () => Promise<QueueFactory>]> = [
  [
    'src/queue.js (ESM)',
    async () => (await import(pathToFileURL(join(driverRoot, 'src', 'queue.js')).href)).default,
  ],
  ['cjs/src/queue.js (CommonJS)', async () => require(join(driverRoot, 'cjs', 'src', 'queue.js'))],
];

/** What the queues' arrays did: the entries `indexOf` may look at, and the longest the array grew. */
const tally = { scanned: 0, longest: 0 };

/** An array that keeps the tally; a queue made from one copies it with `slice`, which keeps the class. */
class CountingArray<T> extends Array<T> {
  override indexOf(x: T, from?: number): number {
    tally.scanned += this.length - (from ?? 0);
    return super.indexOf(x, from);
  }
  override push(...items: T[]): number {
    const length = super.push(...items);
    tally.longest = Math.max(tally.longest, length);
    return length;
  }
}

/** A deterministic pseudo-random sequence, so that a failure can be replayed. */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

describe('the postgres driver the server loads', () => {
  it('is imported from src/ under ESM', () => {
    expect(manifest.exports.import).toBe('./src/index.js');
  });

  describe.each(copies)('queue %s', (_name, load) => {
    let Queue: QueueFactory;
    beforeAll(async () => {
      Queue = await load();
    });

    it('keeps first-in first-out order when entries leave from the middle', () => {
      const queue = Queue<number>();
      for (let n = 1; n <= 10; n++) queue.push(n);
      expect(queue.remove(4)).toBe(4);
      expect(queue.shift()).toBe(1);
      expect(queue.remove(7)).toBe(7);
      expect(queue.remove(1)).toBeNull();
      expect(queue.remove(42)).toBeNull();
      expect(queue.length).toBe(7);
      expect(Array.from({ length: 7 }, () => queue.shift())).toEqual([2, 3, 5, 6, 8, 9, 10]);
      expect(queue.length).toBe(0);
    });

    it('loses and reorders nothing over many pushes, shifts and removals without ever emptying', () => {
      const queue = Queue<number>();
      const model: number[] = [];
      const next = sequence(14);
      let counter = 0;
      const differences: string[] = [];
      for (let step = 0; step < 50_000 && differences.length < 5; step++) {
        const roll = next();
        if (roll < 0.5 || model.length < 3) {
          queue.push(++counter);
          model.push(counter);
        } else if (roll < 0.85) {
          const [got, expected] = [queue.shift(), model.shift()];
          if (got !== expected) differences.push(`step ${step}: shift gave ${got}, not ${expected}`);
        } else {
          const [gone] = model.splice(Math.floor(next() * model.length), 1);
          const got = queue.remove(gone!);
          if (got !== gone) differences.push(`step ${step}: remove(${gone}) gave ${got}`);
        }
        if (queue.length !== model.length)
          differences.push(`step ${step}: length ${queue.length}, not ${model.length}`);
      }
      expect(differences).toEqual([]);
      expect(Array.from({ length: model.length }, () => queue.shift())).toEqual(model);
    });

    it('looks only at queued entries when removing, however many have passed through', () => {
      // The busy connections under load: the next query goes to the connection shifted from the head, which is
      // then moved back (removed, then pushed); with ten connections the queue never empties.
      const connections = new CountingArray<{ id: number }>();
      for (let id = 0; id < 10; id++) connections.push({ id });
      const busy = Queue(connections);
      tally.longest = 0;
      for (let query = 0; query < 20_000; query++) {
        const connection = busy.shift()!;
        busy.remove(connection);
        busy.push(connection);
      }
      expect(tally.longest).toBeGreaterThanOrEqual(10); // the queue's array is a CountingArray
      tally.scanned = 0;
      expect(busy.remove({ id: -1 })).toBeNull();
      expect(tally.scanned).toBeLessThanOrEqual(busy.length);
      // The slots of shifted entries are dropped once they are half the array.
      expect(tally.longest).toBeLessThan(2 * 1024 + 10);
      expect(busy.length).toBe(10);
    });
  });
});

const postgresUrl = inject('postgresUrl');

describe.skipIf(!postgresUrl)('the postgres driver with more waiting queries than connections', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: postgres.Sql;
  beforeAll(async () => {
    database = await createTestDatabase();
    sql = postgres(database.url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end({ timeout: 1 });
    await database?.drop();
  });

  it('answers the waiting queries in order when one of them is cancelled from the middle', async () => {
    // While a transaction holds the only connection, other queries wait in the driver's queue.
    let release!: () => void;
    let started!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inside = new Promise<void>((resolve) => {
      started = resolve;
    });
    const transaction = sql.begin(async (tx) => {
      await tx`SELECT 1`;
      started();
      await held;
    });
    await inside;
    const waiting = [1, 2, 3, 4, 5].map((n) => sql<{ n: number }[]>`SELECT ${n}::int AS n`);
    const settled = waiting.map((query) =>
      query.then(
        ([row]) => row!.n,
        (error: { code?: string }) => error.code,
      ),
    );
    // A query joins the queue a tick after it is first awaited.
    await new Promise((resolve) => setImmediate(resolve));
    await waiting[2]!.cancel();
    release();
    await transaction;
    expect(await Promise.all(settled)).toEqual([1, 2, '57014', 4, 5]);
  });
});

describe.skipIf(!postgresUrl)('a server whose pool is smaller than the requests in flight', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ engine: 'postgres', config: { databasePoolSize: 2 } });
  }, 60_000);
  afterAll(() => t?.stop());

  it('answers every request with its own document', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `order-${i}`);
    const created = await Promise.all(
      ids.map((id, i) => t.call('POST', '/api/v1/data/orders', { body: { _id: id, n: i } })),
    );
    expect(created.map((res) => res.status)).toEqual(ids.map(() => 201));
    // Enough queries at 8× the pool for the driver's busy queue to pass its 1024 shifted slots several times.
    const inFlight = 16;
    const wrong: string[] = [];
    let answered = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async (_, lane) => {
        for (let k = 0; k < 150; k++) {
          const i = (lane * 150 + k) % ids.length;
          const res = await t.call('GET', `/api/v1/data/orders/${ids[i]}`);
          const body = (await res.json()) as { _id?: string; n?: number };
          answered++;
          if (res.status !== 200 || body._id !== ids[i] || body.n !== i)
            wrong.push(`${ids[i]}: ${res.status} ${JSON.stringify(body).slice(0, 80)}`);
        }
      }),
    );
    expect(wrong).toEqual([]);
    expect(answered).toBe(inFlight * 150);
  }, 60_000);
});
