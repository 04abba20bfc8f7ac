import { iso } from '../webhooks/clock.js';
import type { Cursor, EventSource, StreamFormat, StreamItem } from './event-stream.js';

/** Events read from storage at a time. */
export const PAGE = 100;
/** How often the streams look even when nothing announced a capture (a missed announcement costs at most this). */
export const POLL_MS = 1_000;
/**
 * How far back each look reaches. On PostgreSQL a write can commit after a later one, so its delivery can
 * appear behind the newest one already streamed; looking back (and skipping what was sent) still finds it.
 */
export const LOOK_BACK_MS = 5_000;
/**
 * The feed's reads start at most this often: under a steady stream of writes each read then brings several events,
 * and each stream writes them to its socket at once (a socket write per stream and read is most of the fan-out's
 * cost). A capture after a quiet spell is read at once; one during or soon after a read waits for the next start,
 * at most this long after the last one began (not this long after it ended, which added a read's time).
 */
const READ_EVERY_MS = 25;

/** Whether cursor `a` comes after `b` in a stream's order. */
export function after(a: Cursor, b: Cursor): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

/** A stream in a feed: offered each event the feed finds, and woken whenever it looks. */
export interface FeedMember<E extends StreamItem> {
  /** An event the feed found for the first time, in the order found; false stops a replay early. */
  offer(event: E, at: number, seq: number): boolean;
  /** The feed looks again (a capture, or the poll): a member reading storage on its own looks too. */
  wake(): void;
}

/** A found event, with its capture time (ms) and its number in the order the feed found it. */
interface Found<E> {
  event: E;
  at: number;
  seq: number;
}

/**
 * The events of one source (a stream subscription, a user's notifications) as they are kept, read once for every
 * stream of it on this instance: a thousand open streams of a collection cost one read of storage per capture, not
 * a thousand, and each event is written in a given format once for all of them (`frame`). A stream that is behind (new and resuming, or a slow
 * reader) reads storage on its own until it has caught up, then takes the feed's events (`replay` hands it those
 * the feed found meanwhile).
 */
export class EventFeed<E extends StreamItem> {
  private readonly members = new Set<FeedMember<E>>();
  /** What the feed found in the last `LOOK_BACK_MS` before its newest event, in the order found. */
  private recent: Found<E>[] = [];
  private readonly seen = new Set<string>();
  private newest: number;
  private found = 0;
  /** Events found before this time are forgotten: a stream that falls behind does not look before it. */
  private keptSince: number;
  private pumping = false;
  private again = false;
  /** The greatest cursor read: a read looks only after it, but for one look back every `POLL_MS`. */
  private tail: Cursor | undefined;
  private lastLookBack = 0;
  private nextRead: NodeJS.Timeout | undefined;
  /** When the last read started (`performance.now()`): reads start at most once every `READ_EVERY_MS`. */
  private lastRead = Number.NEGATIVE_INFINITY;
  private readonly poll: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private readonly frames = new WeakMap<E, Map<StreamFormat<E>, string>>();

  constructor(
    private readonly source: EventSource<E>,
    private readonly onEmpty: () => void,
  ) {
    this.newest = source.now?.() ?? Date.now();
    this.keptSince = this.newest - LOOK_BACK_MS;
    this.unsubscribe = source.onNew(() => this.look());
    this.poll = setInterval(() => this.look(), POLL_MS);
  }

  /** Adds a stream; the returned function takes it out (the last one out ends the feed). */
  join(member: FeedMember<E>): () => void {
    this.members.add(member);
    return () => {
      if (!this.members.delete(member) || this.members.size > 0) return;
      clearInterval(this.poll);
      clearTimeout(this.nextRead);
      this.unsubscribe();
      this.onEmpty();
    };
  }

  /** Offers a member that has just caught up every event the feed holds, oldest found first. */
  replay(member: FeedMember<E>): void {
    for (const { event, at, seq } of this.recent) if (!member.offer(event, at, seq)) return;
  }

  /**
   * The events numbered up to `seq` that the feed still holds (what a member took before it fell behind), and
   * the time before which the feed forgot what it found.
   */
  taken(seq: number): { events: { eventId: string; at: number }[]; keptSince: number } {
    const events = [];
    for (const found of this.recent)
      if (found.seq <= seq) events.push({ eventId: found.event.eventId, at: found.at });
    return { events, keptSince: this.keptSince };
  }

  /** The event as `format` writes it, made once per event and format. */
  frame(format: StreamFormat<E>, event: E): string {
    let byFormat = this.frames.get(event);
    if (!byFormat) {
      byFormat = new Map();
      this.frames.set(event, byFormat);
    }
    let text = byFormat.get(format);
    if (text === undefined) {
      text = format.event(event);
      byFormat.set(format, text);
    }
    return text;
  }

  private look(): void {
    for (const member of this.members) member.wake();
    // A read is due already: it finds this capture too.
    if (this.nextRead) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    const wait = this.lastRead + READ_EVERY_MS - performance.now();
    if (wait > 0) {
      this.nextRead = setTimeout(() => {
        this.nextRead = undefined;
        this.look();
      }, wait);
      return;
    }
    this.lastRead = performance.now();
    this.pumping = true;
    this.read()
      // A failed read is tried again at the next capture or poll; the streams stay open meanwhile.
      .catch(() => {})
      .finally(() => {
        this.pumping = false;
        if (!this.again) return;
        this.again = false;
        this.look();
      });
  }

  /**
   * Reads what was kept after the newest event read; at most once every `POLL_MS`, from `LOOK_BACK_MS` before it
   * instead (on PostgreSQL a write can commit after a later one: its event appears behind those read already).
   */
  private async read(): Promise<void> {
    const now = Date.now();
    const lookBack = this.tail === undefined || now - this.lastLookBack >= POLL_MS;
    if (lookBack) this.lastLookBack = now;
    let cursor = lookBack ? { createdAt: iso(this.newest - LOOK_BACK_MS), id: '' } : this.tail!;
    // Only a look back with cursors to read waits before the first page: otherwise the read starts in this turn, and
    // captures that come meanwhile are the next read's.
    if (lookBack && this.tail && this.source.cursors) cursor = await this.lookBackStart(cursor);
    for (;;) {
      const events = await this.source.page(cursor, PAGE);
      for (const event of events) this.take(event);
      const last = events.at(-1)?.cursor;
      if (last && (!this.tail || after(last, this.tail))) this.tail = last;
      if (events.length < PAGE) break;
      cursor = last!;
    }
    if (lookBack) this.forget(this.newest - LOOK_BACK_MS);
  }

  /**
   * Where a look back from `from` reads events: just before the first one kept after `from` that the feed has not
   * found (one committed late, or a new one), found by reading cursors and ids alone; the tail when it found them
   * all. Reading the events themselves brought 5 s of them, all found already, once a second: at 200 writes a
   * second, a thousand bodies a second, a quarter of what outlived the young generation (sampling heap profiles).
   */
  private async lookBackStart(from: Cursor): Promise<Cursor> {
    let before = from;
    for (;;) {
      const kept = await this.source.cursors!(before, PAGE);
      for (const { cursor, eventId } of kept) {
        if (!this.seen.has(eventId)) return before;
        before = cursor;
      }
      if (kept.length < PAGE) return this.tail!;
    }
  }

  private take(event: E): void {
    if (this.seen.has(event.eventId)) return;
    const at = Date.parse(event.cursor.createdAt);
    const found = { event, at, seq: ++this.found };
    this.seen.add(event.eventId);
    this.recent.push(found);
    if (at > this.newest) this.newest = at;
    for (const member of this.members) member.offer(event, at, found.seq);
  }

  private forget(before: number): void {
    if (before <= this.keptSince) return;
    this.keptSince = before;
    if (!this.recent.some((found) => found.at < before)) return;
    const kept: Found<E>[] = [];
    for (const found of this.recent) {
      if (found.at >= before) kept.push(found);
      else this.seen.delete(found.event.eventId);
    }
    this.recent = kept;
  }
}

/** The feeds of this instance by key (a subscription, a user): one per key while any stream of it is open. */
export class EventFeeds<E extends StreamItem> {
  private readonly open = new Map<string, EventFeed<E>>();

  /** The feed of `key`, made over `source()` when no stream of it is open. */
  of(key: string, source: () => EventSource<E>): EventFeed<E> {
    const open = this.open.get(key);
    if (open) return open;
    const feed = new EventFeed(source(), () => {
      if (this.open.get(key) === feed) this.open.delete(key);
    });
    this.open.set(key, feed);
    return feed;
  }
}
