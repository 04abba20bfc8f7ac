import { iso } from '../webhooks/clock.js';
import { after, type EventFeed, type FeedMember, LOOK_BACK_MS, PAGE } from './event-feed.js';

/** How often a stream that has caught up forgets the ids it sent while it read storage on its own. */
const FORGET_MS = 1_000;
/**
 * Bytes a connection may hold unsent (beyond what the operating system buffers) before the stream waits for its
 * reader: a reader that does not keep up costs the server at most this much, plus one event and one page.
 */
export const STREAM_BUFFER_BYTES = 1024 * 1024;
/** How long a stream waits for its reader to take what is buffered before cutting it off as too slow. */
export const STREAM_STALL_MS = 10_000;

/** Orders a stream: an event's creation time and id. */
export interface Cursor {
  createdAt: string;
  id: string;
}

/** What a stream sends: an event with its place in the stream and the id a client resumes after. */
export interface StreamItem {
  cursor: Cursor;
  eventId: string;
}

/**
 * Where a stream's events come from: pages of them after a cursor, in cursor order, and a wake-up when new ones
 * may have been kept (by this instance; another instance's are found by the feed's regular look).
 */
export interface EventSource<E extends StreamItem> {
  page(after: Cursor, limit: number): Promise<E[]>;
  /**
   * The same events' cursors and ids alone: a feed's look back reads these first, and the events themselves only
   * from where one it has not found is. Optional: the look back reads the events without it.
   */
  cursors?(after: Cursor, limit: number): Promise<Pick<StreamItem, 'cursor' | 'eventId'>[]>;
  onNew(wake: () => void): () => void;
  /** The clock events are stamped with, when it is not the system's (a feed starts looking from its now). */
  now?(): number;
}

/** Where an event stream writes: a server-sent event reply, or one subscription of a WebSocket. */
export interface StreamConnection {
  write(text: string): void;
  /** Bytes written but not yet handed to the operating system. */
  buffered(): number;
  /** Resolves true once the buffer is emptied (false after `ms`, or when the connection ends). */
  drained(ms: number): Promise<boolean>;
  end(): void;
}

/** How a stream writes one event, and the error that ends it. */
export interface StreamFormat<E extends StreamItem> {
  /** What the connection starts with: the start id of a new stream (undefined for a resumed one). */
  start(startId: string | undefined): string;
  event(event: E): string;
  /** The last thing a stream sends: why it ends, and the last id it sent (where the client resumes). */
  error(error: { code: string; message: string }, lastEventId: string | undefined): string;
}

/** What an event stream is made of. */
export interface EventStreamParts<E extends StreamItem> {
  /** Where the stream reads on its own while it is behind its feed. */
  source: EventSource<E>;
  format: StreamFormat<E>;
  /** Only the events it accepts are sent; the others are skipped as if they were sent. */
  filter?: (event: E) => boolean;
  /** Events at or before this cursor are never sent (the stream's start, or the client's Last-Event-ID). */
  floor: Cursor;
  /** The id the client holds already (its Last-Event-ID, or the start id it was sent). */
  lastEventId: string | undefined;
  /** The source's events as this instance finds them, shared by every stream of that source. */
  feed: EventFeed<E>;
  open: (onClose: () => void) => StreamConnection;
  onClose: () => void;
  /** Bytes the connection may buffer before the reader is cut off (`STREAM_BUFFER_BYTES`). */
  bufferBytes?: number;
}

/**
 * One connected client: sends the source's events as they are kept, in order, each once. A stream reads storage on
 * its own from where it starts until it has caught up, then takes the events its feed finds for every stream
 * (`offer`); when its reader falls behind it reads storage on its own again, waiting for the reader as it goes, and
 * cuts off a reader that falls too far behind. Webhook stream subscriptions, collection change streams and
 * notifications use it.
 */
export class EventStream<E extends StreamItem> implements FeedMember<E> {
  /** Ids sent (or filtered out) while reading storage on its own, with their capture times. */
  private readonly sent = new Map<string, number>();
  private newest: number;
  private lastEventId: string | undefined;
  private pumping = false;
  private closed = false;
  /** Whether the stream takes its feed's events (it has caught up) rather than reading storage. */
  private live = false;
  /** The feed's number of the last event offered while live. */
  private lastOffered = 0;
  /** Events captured before this time are never sent: whether they were is forgotten. */
  private forgotten = Number.NEGATIVE_INFINITY;
  private lastForget = 0;
  private readonly leave: () => void;
  private readonly connection: StreamConnection;
  private readonly bufferBytes: number;

  constructor(private readonly parts: EventStreamParts<E>) {
    this.newest = Date.parse(parts.floor.createdAt);
    this.lastEventId = parts.lastEventId;
    this.bufferBytes = parts.bufferBytes ?? STREAM_BUFFER_BYTES;
    this.connection = parts.open(() => this.close());
    this.leave = parts.feed.join(this);
    this.pump();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.leave();
    this.connection.end();
    this.parts.onClose();
  }

  /** Sends the error that ends the stream, with the last id sent, and closes it. */
  fail(error: { code: string; message: string }): void {
    if (this.closed) return;
    this.connection.write(this.parts.format.error(error, this.lastEventId));
    this.close();
  }

  wake(): void {
    if (!this.live) this.pump();
  }

  offer(event: E, at: number, seq: number): boolean {
    if (!this.live || this.closed) return false;
    if (this.connection.buffered() > this.bufferBytes) {
      this.fallBehind();
      return false;
    }
    this.lastOffered = seq;
    this.deliver(event, at);
    if (this.sent.size > 0 && at - this.lastForget > FORGET_MS) {
      this.lastForget = at;
      this.forget(Math.max(Date.parse(this.parts.floor.createdAt), this.newest - LOOK_BACK_MS));
    }
    return !this.closed;
  }

  /** The reader is behind: read storage on its own again, knowing which of the feed's events it took. */
  private fallBehind(): void {
    this.live = false;
    const taken = this.parts.feed.taken(this.lastOffered);
    for (const { eventId, at } of taken.events) this.sent.set(eventId, at);
    this.forgotten = Math.max(this.forgotten, taken.keptSince);
    this.pump();
  }

  private pump(): void {
    if (this.closed) return;
    // A read under way reads to the end: whatever it misses is the feed's to find once the stream is live.
    if (this.pumping) return;
    this.pumping = true;
    let caughtUp = false;
    this.drain()
      .then((done) => {
        caughtUp = done;
      })
      .catch(() => this.close())
      .finally(() => {
        this.pumping = false;
        // Caught up: what was captured since the last read is the feed's to find (or found, and replayed now).
        if (caughtUp && !this.closed) {
          this.live = true;
          this.parts.feed.replay(this);
        }
      });
  }

  /** Reads storage from where the stream is; true once it read everything there is. */
  private async drain(): Promise<boolean> {
    const { source, floor } = this.parts;
    const since = Math.max(Date.parse(floor.createdAt), this.newest - LOOK_BACK_MS);
    let cursor: Cursor = { createdAt: iso(since), id: '' };
    for (;;) {
      const events = await source.page(cursor, PAGE);
      for (const event of events) if (!(await this.send(event))) return false;
      if (events.length < PAGE) break;
      cursor = events.at(-1)!.cursor;
    }
    this.forget(since);
    return true;
  }

  /** Sends the event unless it was sent or filtered out; false when the stream has ended. */
  private async send(event: E): Promise<boolean> {
    if (this.closed) return false;
    const at = Date.parse(event.cursor.createdAt);
    if (this.skips(event, at)) return true;
    if (this.connection.buffered() > this.bufferBytes && !(await this.connection.drained(STREAM_STALL_MS))) {
      // What was written before still reaches the reader, then the error names the last of it.
      this.fail({ code: 'too_slow', message: 'The reader fell too far behind: resume from lastEventId' });
      return false;
    }
    if (this.closed) return false;
    this.deliver(event, at);
    return true;
  }

  /** Whether the event is not for this stream: before its start, sent already, or too old to tell. */
  private skips(event: E, at: number): boolean {
    return !after(event.cursor, this.parts.floor) || at < this.forgotten || this.sent.has(event.eventId);
  }

  private deliver(event: E, at: number): void {
    if (this.skips(event, at)) return;
    // The feed offers each event once: only what the stream reads on its own needs remembering.
    if (!this.live) this.sent.set(event.eventId, at);
    if (at > this.newest) this.newest = at;
    const { filter, format, feed } = this.parts;
    if (filter && !filter(event)) return;
    this.connection.write(feed.frame(format, event));
    this.lastEventId = event.eventId;
  }

  /** Forgets the ids sent before `since`; events from before it are never sent after this. */
  private forget(since: number): void {
    if (since > this.forgotten) this.forgotten = since;
    for (const [id, at] of this.sent) if (at < since) this.sent.delete(id);
  }
}
