import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { FLUSH_SLICE, flushSoon } from '../src/http/sse.js';

describe("server-sent event streams' flushes", () => {
  it('run a slice at the end of the turn and the rest in later turns, each once and in order', async () => {
    const ran: number[] = [];
    const count = FLUSH_SLICE * 2 + 10;
    for (let i = 0; i < count; i++) flushSoon(() => ran.push(i));
    expect(ran).toEqual([]);
    await Promise.resolve();
    expect(ran).toHaveLength(FLUSH_SLICE);
    // An I/O callback that comes now runs before the next slice: requests are not held behind every stream.
    let between: number | undefined;
    setImmediate(() => {
      between = ran.length;
    });
    while (ran.length < count) await nextTurn();
    expect(ran).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(between).toBeLessThan(count);
    // A flush asked for after the queue emptied starts a new first slice.
    flushSoon(() => ran.push(-1));
    await Promise.resolve();
    expect(ran.at(-1)).toBe(-1);
  });

  it("go on past one stream's failure, which is thrown on its own", async () => {
    const thrown: unknown[] = [];
    const onError = (error: unknown) => thrown.push(error);
    process.prependListener('uncaughtException', onError);
    try {
      const ran: string[] = [];
      flushSoon(() => ran.push('first'));
      flushSoon(() => {
        throw new Error('socket gone');
      });
      flushSoon(() => ran.push('third'));
      await nextTurn();
      expect(ran).toEqual(['first', 'third']);
      expect(thrown).toEqual([new Error('socket gone')]);
      flushSoon(() => ran.push('later'));
      await nextTurn();
      expect(ran.at(-1)).toBe('later');
    } finally {
      process.off('uncaughtException', onError);
    }
  });
});
