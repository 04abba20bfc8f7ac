import { iso } from '../webhooks/clock.js';

// A page is what a stream holds besides its socket's buffer while it waits for a slow reader.
const PAGE = 100;
const POLL_MS = 1_000;
/**
 * How far back each look reaches. On PostgreSQL a write can commit after a later one, so its delivery can
 * appear behind the newest one already streamed; looking back (and skipping what was sent) still finds it.
 */
const LOOK_BACK_MS = 5_000;
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
 * may have been kept (by this instance; another instance's are found by the stream's regular look).
 */
export interface EventSource<E extends StreamItem> {
  page(after: Cursor, limit: number): Promise<E[]>;
  onNew(wake: () => void): () => void;
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

function after(a: Cursor, b: Cursor): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

/** What an event stream is made of. */
export interface EventStreamParts<E extends StreamItem> {
  source: EventSource<E>;
  format: StreamFormat<E>;
  /** Only the events it accepts are sent; the others are skipped as if they were sent. */
  filter?: (event: E) => boolean;
  /** Events at or before this cursor are never sent (the stream's start, or the client's Last-Event-ID). */
  floor: Cursor;
  /** The id the client holds already (its Last-Event-ID, or the start id it was sent). */
  lastEventId: string | undefined;
  open: (onClose: () => void) => StreamConnection;
  onClose: () => void;
  /** Bytes the connection may buffer before the reader is cut off (`STREAM_BUFFER_BYTES`). */
  bufferBytes?: number;
}

/**
 * One connected client: sends the source's events as they are kept, in order, each once, and cuts off a reader
 * that falls too far behind. Webhook stream subscriptions, collection change streams and notifications use it.
 */
export class EventStream<E extends StreamItem> {
  private readonly sent = new Map<string, number>();
  private newest: number;
  private lastEventId: string | undefined;
  private pumping = false;
  private again = false;
  private closed = false;
  private readonly poll: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private readonly connection: StreamConnection;
  private readonly bufferBytes: number;

  constructor(private readonly parts: EventStreamParts<E>) {
    this.newest = Date.parse(parts.floor.createdAt);
    this.lastEventId = parts.lastEventId;
    this.bufferBytes = parts.bufferBytes ?? STREAM_BUFFER_BYTES;
    this.connection = parts.open(() => this.close());
    this.unsubscribe = parts.source.onNew(() => this.pump());
    this.poll = setInterval(() => this.pump(), POLL_MS);
    this.pump();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.poll);
    this.unsubscribe();
    this.connection.end();
    this.parts.onClose();
  }

  /** Sends the error that ends the stream, with the last id sent, and closes it. */
  fail(error: { code: string; message: string }): void {
    if (this.closed) return;
    this.connection.write(this.parts.format.error(error, this.lastEventId));
    this.close();
  }

  private pump(): void {
    if (this.closed) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    this.drain()
      .catch(() => this.close())
      .finally(() => {
        this.pumping = false;
        if (this.again) {
          this.again = false;
          this.pump();
        }
      });
  }

  private async drain(): Promise<void> {
    const { source, floor } = this.parts;
    const since = Math.max(Date.parse(floor.createdAt), this.newest - LOOK_BACK_MS);
    let cursor: Cursor = { createdAt: iso(since), id: '' };
    for (;;) {
      const events = await source.page(cursor, PAGE);
      for (const event of events) if (!(await this.send(event))) return;
      if (events.length < PAGE) break;
      cursor = events.at(-1)!.cursor;
    }
    for (const [id, at] of this.sent) if (at < since) this.sent.delete(id);
  }

  /** Sends the event unless it was sent or filtered out; false when the stream has ended. */
  private async send(event: E): Promise<boolean> {
    if (this.closed) return false;
    if (!after(event.cursor, this.parts.floor) || this.sent.has(event.eventId)) return true;
    if (this.connection.buffered() > this.bufferBytes && !(await this.connection.drained(STREAM_STALL_MS))) {
      // What was written before still reaches the reader, then the error names the last of it.
      this.fail({ code: 'too_slow', message: 'The reader fell too far behind: resume from lastEventId' });
      return false;
    }
    if (this.closed) return false;
    const at = Date.parse(event.cursor.createdAt);
    this.sent.set(event.eventId, at);
    this.newest = Math.max(this.newest, at);
    if (this.parts.filter && !this.parts.filter(event)) return true;
    this.connection.write(this.parts.format.event(event));
    this.lastEventId = event.eventId;
    return true;
  }
}
