import type { FastifyReply, FastifyRequest } from 'fastify';
import { EventFeeds } from '../http/event-feed.js';
import { type Cursor, type EventSource, EventStream, type StreamFormat } from '../http/event-stream.js';
import { openSse, SSE_FORMAT, sseEvent } from '../http/sse.js';
import { notificationOf } from '../services/notifications.js';
import type { Notification } from '../storage/notifications.js';
import type { Storage } from '../storage/types.js';
import type { Notifier } from './notifier.js';

/** A kept notification as a stream sends it. */
interface NotificationEvent {
  cursor: { createdAt: string; id: string };
  eventId: string;
  row: Notification;
}

const NOTIFICATION_SSE: StreamFormat<NotificationEvent> = {
  ...SSE_FORMAT,
  start: () => 'retry: 2000\n\n',
  event: ({ row }) => sseEvent({ id: row.id, type: 'notification', data: notificationOf(row) }),
};

/** The open notification streams of this instance, so that shutting down can end them. */
export class NotificationStreams {
  private readonly open = new Set<EventStream<NotificationEvent>>();
  /** One feed per user with open streams on this instance (a user's tabs share it). */
  private readonly feeds = new EventFeeds<NotificationEvent>();

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
    const floor = resumed
      ? { createdAt: resumed.createdAt, id: resumed.id }
      : { createdAt: new Date(this.notifier.now()).toISOString(), id: '' };
    const source = this.sourceOf(userId);
    const stream: EventStream<NotificationEvent> = new EventStream({
      source,
      feed: this.feeds.of(userId, () => source),
      format: NOTIFICATION_SSE,
      floor,
      lastEventId: resumed?.id,
      open: (onClose) => openSse(request, reply, NOTIFICATION_SSE.start(undefined), onClose),
      onClose: () => this.open.delete(stream),
    });
    this.open.add(stream);
  }

  private sourceOf(userId: string): EventSource<NotificationEvent> {
    return {
      page: async (after: Cursor, limit: number) =>
        (await this.storage.notifications.after(userId, after, limit)).map((row) => ({
          cursor: { createdAt: row.createdAt, id: row.id },
          eventId: row.id,
          row,
        })),
      // Another instance's notifications are found by the feed's regular look; this instance's wake it at once.
      onNew: (wake) =>
        this.notifier.onRaised((user) => {
          if (user === userId) wake();
        }),
      now: () => this.notifier.now(),
    };
  }

  /** Ends every open stream (the server is stopping). */
  closeAll(): void {
    for (const stream of [...this.open]) stream.close();
  }
}
