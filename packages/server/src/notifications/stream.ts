import type { FastifyReply, FastifyRequest } from 'fastify';
import { openSse, type SseConnection, sseEvent } from '../http/sse.js';
import { notificationOf } from '../services/notifications.js';
import type { NotificationCursor } from '../storage/notifications.js';
import type { Storage } from '../storage/types.js';
import type { Notifier } from './notifier.js';

const PAGE = 100;
/** Another instance's notifications are found by looking; this instance's wake the stream at once. */
const POLL_MS = 1_000;
/**
 * How far back each look reaches. On PostgreSQL a notification can commit after a later one, so it can appear
 * behind the newest one already streamed; looking back (and skipping what was sent) still finds it.
 */
const LOOK_BACK_MS = 5_000;

function isAfter(a: NotificationCursor, b: NotificationCursor): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

/** One connected user: sends their notifications after `cursor` as they are kept. */
class NotificationStream {
  private pumping = false;
  private again = false;
  private closed = false;
  private readonly poll: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private readonly connection: SseConnection;
  /** What was sent within the look-back, by id, with its time. */
  private readonly sent = new Map<string, number>();
  private newest: number;

  constructor(
    private readonly storage: Storage,
    notifier: Notifier,
    private readonly userId: string,
    /** Notifications at or before this cursor are never sent (the stream's start, or the client's Last-Event-ID). */
    private readonly floor: NotificationCursor,
    open: (onClose: () => void) => SseConnection,
    private readonly onClose: () => void,
  ) {
    this.newest = Date.parse(floor.createdAt);
    this.connection = open(() => this.close());
    this.unsubscribe = notifier.onRaised((user) => {
      if (user === userId) this.pump();
    });
    this.poll = setInterval(() => this.pump(), POLL_MS);
    this.pump();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.poll);
    this.unsubscribe();
    this.connection.end();
    this.onClose();
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
    const since = Math.max(Date.parse(this.floor.createdAt), this.newest - LOOK_BACK_MS);
    let cursor: NotificationCursor = { createdAt: new Date(since).toISOString(), id: '' };
    for (;;) {
      const rows = await this.storage.notifications.after(this.userId, cursor, PAGE);
      for (const row of rows) {
        const at: NotificationCursor = { createdAt: row.createdAt, id: row.id };
        cursor = at;
        if (!isAfter(at, this.floor) || this.sent.has(row.id)) continue;
        this.connection.write(sseEvent({ id: row.id, type: 'notification', data: notificationOf(row) }));
        this.sent.set(row.id, Date.parse(row.createdAt));
        this.newest = Math.max(this.newest, Date.parse(row.createdAt));
      }
      if (rows.length < PAGE) break;
    }
    for (const [id, at] of this.sent) if (at < since) this.sent.delete(id);
  }
}

/** The open notification streams of this instance, so that shutting down can end them. */
export class NotificationStreams {
  private readonly open = new Set<NotificationStream>();

  constructor(
    private readonly storage: Storage,
    private readonly notifier: Notifier,
  ) {}

  /**
   * Takes over the reply and streams the user's notifications kept from now on, or after the one a
   * `Last-Event-ID` header names (an id that is not the user's starts from now).
   */
  async serve(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
    const lastEventId = request.headers['last-event-id'];
    const resumed =
      typeof lastEventId === 'string' && lastEventId !== ''
        ? await this.storage.notifications.find(userId, lastEventId)
        : null;
    // Notifications are stamped with the notifier's clock, so the stream starts from it. Ids are ULIDs, so a notification kept later in the same millisecond still sorts after an empty id.
    const cursor = resumed
      ? { createdAt: resumed.createdAt, id: resumed.id }
      : { createdAt: new Date(this.notifier.now()).toISOString(), id: '' };
    const stream: NotificationStream = new NotificationStream(
      this.storage,
      this.notifier,
      userId,
      cursor,
      (onClose) => openSse(request, reply, 'retry: 2000\n\n', onClose),
      () => this.open.delete(stream),
    );
    this.open.add(stream);
  }

  /** Ends every open stream (the server is stopping). */
  closeAll(): void {
    for (const stream of [...this.open]) stream.close();
  }
}
