import { describe, expect, it } from 'vitest';
import type { InvocationRow } from '../storage/functions.js';
import { InvocationLog } from './invocation-log.js';

const row = (id: string): InvocationRow => ({
  id,
  functionId: 'fn_1',
  version: 1,
  status: 'ok',
  trigger: 'http',
  durationMs: 0.1,
  startedAt: '2026-01-01T00:00:00.000Z',
  logs: [],
  error: null,
});

function store(fail: (rows: InvocationRow[]) => boolean = () => false) {
  const writes: string[][] = [];
  return {
    writes,
    async recordInvocations(rows: InvocationRow[]) {
      if (fail(rows)) throw new Error(`refused ${rows.map((r) => r.id).join(',')}`);
      writes.push(rows.map((r) => r.id));
    },
  };
}

describe('InvocationLog', () => {
  it('writes the runs of one moment in one write, in the order they were added', async () => {
    const target = store();
    const log = new InvocationLog(target, () => {}, { waitMs: 5, maxRows: 100 });
    for (const id of ['a', 'b', 'c']) log.add(row(id));
    expect(target.writes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(target.writes).toEqual([['a', 'b', 'c']]);
  });

  it('writes at once when a batch is full, and flush waits for every row added before it', async () => {
    const target = store();
    const log = new InvocationLog(target, () => {}, { waitMs: 60_000, maxRows: 2 });
    for (const id of ['a', 'b', 'c']) log.add(row(id));
    await log.flush();
    expect(target.writes).toEqual([['a', 'b'], ['c']]);
  });

  it('when a batch is refused, writes its rows one by one and reports only the refused ones', async () => {
    const target = store((rows) => rows.some((r) => r.id === 'bad'));
    const errors: unknown[] = [];
    const log = new InvocationLog(target, (error) => errors.push(error), { waitMs: 60_000, maxRows: 100 });
    for (const id of ['a', 'bad', 'c']) log.add(row(id));
    await log.flush();
    expect(target.writes).toEqual([['a'], ['c']]);
    expect(errors).toHaveLength(1);
  });
});
