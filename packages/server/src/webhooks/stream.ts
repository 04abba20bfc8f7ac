import type { FastifyReply, FastifyRequest } from 'fastify';
import { EventFeeds } from '../http/event-feed.js';
import { type Cursor, EventStream, type StreamConnection, type StreamFormat } from '../http/event-stream.js';
import { openSse, SSE_FORMAT, sseEvent } from '../http/sse.js';
import { WEBHOOK_HISTORY_MS } from '../maintenance.js';
import type { StreamedEvent } from '../storage/deliveries.js';
import type { Storage } from '../storage/types.js';
import type { SubscriptionRecord } from '../storage/webhooks.js';
import { iso } from './clock.js';
import { deliveryHeaders } from './delivery-headers.js';
import type { WebhookService } from './service.js';

/** A stream of a stream subscription's deliveries. */
export type DeliveryStream = EventStream<StreamedEvent>;
/** How a stream of deliveries writes them. */
export type DeliveryFormat = StreamFormat<StreamedEvent>;

/** Prefix of the id that marks where a stream started (`start_` and the ISO time), before any event. */
const START = 'start_';

/** The cursor of a stream's start id, or undefined for any other id (an event's) or a time yet to come. */
function startOf(lastEventId: string): Cursor | undefined {
  if (!lastEventId.startsWith(START)) return undefined;
  const at = Date.parse(lastEventId.slice(START.length));
  if (!Number.isFinite(at) || at > Date.now()) return undefined;
  return { createdAt: iso(at), id: '' };
}

/** What a stream is asked to send: a stream subscription's deliveries, resumed after `Last-Event-ID` if any. */
export interface StreamRequest {
  subscriptionId: string;
  /** The client's `Last-Event-ID` (or an equivalent query parameter); undefined or empty for a new stream. */
  lastEventId: string | undefined;
  format: DeliveryFormat;
  /** Only the events it accepts are sent. */
  filter?: (event: StreamedEvent) => boolean;
  /**
   * The message of the `gone` error a stream resumed with an id that is not (or no longer) known sends before it
   * closes; without it, such a stream starts from now (the webhook event stream, whose clients forward to a local
   * tool).
   */
  unknownId?: string;
}

/** Opens the connection of a stream, which sends `first` before any event; `onClose` runs when it ends. */
export type OpenConnection = (first: string, onClose: () => void) => StreamConnection;

/** The open event streams of this instance, so that shutting down can end them. */
export class EventStreams {
  private readonly open = new Set<DeliveryStream>();
  /** One feed per subscription with open streams on this instance. */
  private readonly feeds = new EventFeeds<StreamedEvent>();

  constructor(
    private readonly storage: Storage,
    private readonly service: WebhookService,
  ) {}

  /** Takes over the reply and streams the subscription's events from now on, or after `Last-Event-ID`. */
  async serve(request: FastifyRequest, reply: FastifyReply, subscription: SubscriptionRecord): Promise<void> {
    this.service.openSecrets(subscription); // fails before the stream starts when this instance has no key
    const lastEventId = request.headers['last-event-id'];
    await this.stream(request, reply, {
      subscriptionId: subscription.id,
      lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined,
      format: {
        ...SSE_FORMAT,
        event: (event) => {
          const headers = deliveryHeaders({
            id: event.eventId,
            type: event.eventType,
            body: event.body,
            sentAt: this.service.now,
            secrets: this.service.openSecrets(subscription),
          });
          return sseEvent({ id: event.eventId, type: event.eventType, data: { body: event.body, headers } });
        },
      },
    });
  }

  /** Takes over the reply and streams a stream subscription's deliveries as server-sent events. */
  stream(
    request: FastifyRequest,
    reply: FastifyReply,
    asked: StreamRequest,
  ): Promise<DeliveryStream | undefined> {
    return this.start(asked, (first, onClose) => openSse(request, reply, first, onClose));
  }

  /**
   * Starts streaming a stream subscription's deliveries (see `StreamRequest`) into the connection `open` makes;
   * undefined when the stream ended at once (an unknown id).
   */
  async start(asked: StreamRequest, open: OpenConnection): Promise<DeliveryStream | undefined> {
    const { lastEventId } = asked;
    const resumed =
      lastEventId !== undefined && lastEventId !== '' ? await this.resumeAt(asked, lastEventId) : null;
    if (lastEventId && !resumed && asked.unknownId) {
      open(asked.format.error({ code: 'gone', message: asked.unknownId }, lastEventId), () => {}).end();
      return undefined;
    }
    // Deliveries are stamped with the system time when captured, so the stream starts from the system time too.
    const floor = resumed ?? { createdAt: iso(Date.now()), id: '' };
    // A new stream's first id is its start, with no event: a client that loses the connection before the first
    // event resumes from there and misses nothing captured meanwhile.
    const startId = resumed ? undefined : `${START}${floor.createdAt}`;
    const first = asked.format.start(startId);
    const source = {
      page: (after: Cursor, limit: number) =>
        this.storage.deliveries.stream(asked.subscriptionId, after, limit),
      cursors: (after: Cursor, limit: number) =>
        this.storage.deliveries.streamCursors(asked.subscriptionId, after, limit),
      onNew: (wake: () => void) => this.storage.deliveries.onCaptured(wake),
    };
    const stream: DeliveryStream = new EventStream({
      source,
      feed: this.feeds.of(asked.subscriptionId, () => source),
      format: asked.format,
      ...(asked.filter ? { filter: asked.filter } : {}),
      floor,
      lastEventId: startId ?? lastEventId,
      open: (onClose) => open(first, onClose),
      onClose: () => this.open.delete(stream),
    });
    this.open.add(stream);
    return stream;
  }

  /** Where a stream resumed with `lastEventId` starts; null when the id is no (longer a) known point. */
  private async resumeAt(asked: StreamRequest, lastEventId: string): Promise<Cursor | null> {
    const start = startOf(lastEventId);
    if (!start) return this.storage.deliveries.cursorOf(asked.subscriptionId, lastEventId);
    // A start from before the kept history would skip what was forgotten since: a stream that refuses unknown
    // ids refuses it too, rather than leave a silent gap.
    const kept = Date.now() - WEBHOOK_HISTORY_MS;
    return !asked.unknownId || Date.parse(start.createdAt) >= kept ? start : null;
  }

  /** Ends every open stream (the server is stopping). */
  closeAll(): void {
    for (const stream of [...this.open]) stream.close();
  }
}
