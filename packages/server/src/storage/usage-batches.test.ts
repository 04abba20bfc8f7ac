import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { UsageRecord } from './usage.js';
import { packUsage, readUsagePage, type StoredBatch } from './usage-batches.js';

/** Batches as storage keeps them: latest end first, later-written first among equal ends. */
function stored(writes: UsageRecord[][]): StoredBatch[] {
  return writes
    .flatMap((records, written) => packUsage(records).map((batch) => ({ ...batch, written })))
    .sort((a, b) => b.lastAt.localeCompare(a.lastAt) || b.written - a.written);
}

const reader = (batches: StoredBatch[]) => async (offset: number, count: number) =>
  batches.slice(offset, offset + count);

describe('readUsagePage', () => {
  it('gives the same pages as sorting every entry, however the batches overlap', async () => {
    const record = fc.record({
      at: fc.integer({ min: 0, max: 200 }),
      status: fc.constantFrom(200, 201, 401, 403, 404, 429),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(record, { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 50 }),
        fc.constantFrom(undefined, 'success' as const, 'denied' as const),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 60 }),
        async (writes, outcome, limit, skip) => {
          // Unique times make "newest first" a single answer; each write is one instance's flush.
          let n = 0;
          const records = writes.map((write) =>
            write.map(({ at, status }) => ({
              keyId: 'k',
              method: 'GET',
              path: `/${n++}`,
              status,
              at: Date.UTC(2026, 0, 1) + at * 1000 + n,
              ip: '::1',
              userAgent: null,
            })),
          );
          const denied = (status: number) => status === 401 || status === 403 || status === 429;
          const expected = records
            .flat()
            .filter((r) => outcome === undefined || denied(r.status) === (outcome === 'denied'))
            .sort((a, b) => b.at - a.at)
            .slice(skip, skip + limit)
            .map((r) => r.path);
          const page = await readUsagePage(reader(stored(records)), { outcome, limit, skip });
          expect(page.map((entry) => entry.path)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stops reading once the rest of the batches end before the page', async () => {
    const records = Array.from({ length: 100 }, (_, i) => [
      {
        keyId: 'k',
        method: 'GET',
        path: `/${i}`,
        status: 200,
        at: 1_700_000_000_000 + i * 1000,
        ip: '::1',
        userAgent: null,
      },
    ]);
    const batches = stored(records);
    let read = 0;
    const page = await readUsagePage(
      async (offset, count) => {
        const slice = batches.slice(offset, offset + count);
        read += slice.length;
        return slice;
      },
      { limit: 5, skip: 0 },
    );
    expect(page.map((entry) => entry.path)).toEqual(['/99', '/98', '/97', '/96', '/95']);
    expect(read).toBeLessThanOrEqual(32);
  });
});
