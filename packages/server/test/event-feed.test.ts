import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { after, EventFeed, POLL_MS } from '../src/http/event-feed.js';
import type { Cursor, EventSource, StreamItem } from '../src/http/event-stream.js';

/**
 * An in-memory source: events kept in cursor order, each page read counted with where it started (and, with
 * `cursors`, each read of cursors alone too).
 */
function memorySource({ cursors = false } = {}) {
  const kept: StreamItem[] = [];
  const reads: Cursor[] = [];
  const cursorReads: Cursor[] = [];
  let wake: () => void = () => {};
  const keptAfter = (from: Cursor, limit: number) =>
    kept.filter((event) => after(event.cursor, from)).slice(0, limit);
  const source: EventSource<StreamItem> = {
    async page(from, limit) {
      reads.push(from);
      return keptAfter(from, limit);
    },
    onNew(listener) {
      wake = listener;
      return () => {};
    },
    ...(cursors
      ? {
          async cursors(from: Cursor, limit: number) {
            cursorReads.push(from);
            return keptAfter(from, limit).map(({ cursor, eventId }) => ({ cursor, eventId }));
          },
        }
      : {}),
  };
  /** Keeps an event stamped `at` (ms) and announces it. */
  const keep = (id: string, at: number) => {
    kept.push({ cursor: { createdAt: new Date(at).toISOString(), id }, eventId: id });
    kept.sort((a, b) => (after(a.cursor, b.cursor) ? 1 : -1));
    wake();
  };
  return { source, keep, reads, cursorReads };
}

function member() {
  const offered: string[] = [];
  return { offered, offer: (event: StreamItem) => offered.push(event.eventId) > 0, wake: () => {} };
}

/** Lets the feed's pending reads (promises) finish. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('an event feed', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads only after the newest event between looks back, and offers each event once', async () => {
    const { source, keep, reads } = memorySource();
    const feed = new EventFeed(source, () => {});
    const stream = member();
    const leave = feed.join(stream);
    keep('a', Date.now());
    await settle();
    keep('b', Date.now() + 1);
    await settle();
    await vi.advanceTimersByTimeAsync(50);
    expect(stream.offered).toEqual(['a', 'b']);
    // The second read started after `a`, not from the look-back.
    expect(reads.at(-1)?.id).toBe('a');
    leave();
  });

  it.each([
    ['reading the events', false],
    ['reading cursors first', true],
  ])(
    'finds an event kept behind the newest one read (a late commit) at its next look back, %s',
    async (_name, cursors) => {
      const { source, keep } = memorySource({ cursors });
      const feed = new EventFeed(source, () => {});
      const stream = member();
      const leave = feed.join(stream);
      const start = Date.now();
      keep('later', start + 10);
      await settle();
      keep('earlier', start + 5);
      await vi.advanceTimersByTimeAsync(50);
      expect(stream.offered).toEqual(['later']);
      await vi.advanceTimersByTimeAsync(POLL_MS);
      expect(stream.offered).toEqual(['later', 'earlier']);
      leave();
    },
  );

  it('looks back through cursors alone when it found every event, then reads the events after the newest', async () => {
    const { source, keep, reads, cursorReads } = memorySource({ cursors: true });
    const feed = new EventFeed(source, () => {});
    const stream = member();
    const leave = feed.join(stream);
    const start = Date.now();
    keep('a', start + 1);
    keep('b', start + 2);
    await vi.advanceTimersByTimeAsync(50);
    expect(stream.offered).toEqual(['a', 'b']);
    const readsBefore = reads.length;
    await vi.advanceTimersByTimeAsync(POLL_MS);
    keep('c', Date.now());
    await vi.advanceTimersByTimeAsync(50);
    expect(stream.offered).toEqual(['a', 'b', 'c']);
    // The look back read cursors from 5 s back, and events only from `b` on: none of those it had found.
    expect(cursorReads.length).toBeGreaterThan(0);
    expect(cursorReads[0]!.id).toBe('');
    expect(reads.slice(readsBefore).every((from) => from.id === 'b' || from.id === 'c')).toBe(true);
    leave();
  });

  it('gathers the captures that come during a read, and reads them together a moment later', async () => {
    const { source, keep, reads } = memorySource();
    const feed = new EventFeed(source, () => {});
    const stream = member();
    const leave = feed.join(stream);
    keep('a', Date.now());
    // These come while the first read is under way.
    for (const id of ['b', 'c', 'd']) keep(id, Date.now() + 1);
    await settle();
    expect(reads).toHaveLength(1);
    expect(stream.offered).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(50);
    expect(reads).toHaveLength(2);
    expect(stream.offered).toEqual(['a', 'b', 'c', 'd']);
    leave();
  });
});
