import type { FastifyReply, FastifyRequest } from 'fastify';
import { openSse, type SseConnection, sseEvent } from '../http/sse.js';
import { WEBHOOK_HISTORY_MS } from '../maintenance.js';
import type { StreamedEvent } from '../storage/deliveries.js';
import type { Storage } from '../storage/types.js';
import type { SubscriptionRecord } from '../storage/webhooks.js';
import { iso } from './clock.js';
import { deliveryHeaders } from './delivery-headers.js';
import type { WebhookService } from './service.js';

const PAGE = 500;
const POLL_MS = 1_000;
/**
 * How far back each look reaches. On PostgreSQL a write can commit after a later one, so its delivery can
 * appear behind the newest one already streamed; looking back (and skipping what was sent) still finds it.
 */
const LOOK_BACK_MS = 5_000;

type Cursor = StreamedEvent['cursor'];

/** Prefix of the id that marks where a stream started (`start_` and the ISO time), before any event. */
const START = 'start_';

/** The cursor of a stream's start id, or undefined for any other id (an event's) or a time yet to come. */
function startOf(lastEventId: string): Cursor | undefined {
  if (!lastEventId.startsWith(START)) return undefined;
  const at = Date.parse(lastEventId.slice(START.length));
  if (!Number.isFinite(at) || at > Date.now()) return undefined;
  return { createdAt: iso(at), id: '' };
}

function after(a: Cursor, b: Cursor): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

/** How a stream writes one event. */
type Format = (event: StreamedEvent) => string;

/** One connected client: sends the subscription's events as they are captured. */
class EventStream {
  private readonly sent = new Map<string, number>();
  private newest: number;
  private pumping = false;
  private again = false;
  private closed = false;
  private readonly poll: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private readonly connection: SseConnection;

  constructor(
    private readonly storage: Storage,
    private readonly subscriptionId: string,
    private readonly format: Format,
    open: (onClose: () => void) => SseConnection,
    /** Events at or before this cursor are never sent (the stream's start, or the client's Last-Event-ID). */
    private readonly floor: Cursor,
    private readonly onClose: () => void,
  ) {
    this.newest = Date.parse(floor.createdAt);
    this.connection = open(() => this.close());
    this.unsubscribe = storage.deliveries.onCaptured(() => this.pump());
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
    let cursor: Cursor = { createdAt: iso(since), id: '' };
    for (;;) {
      const events = await this.storage.deliveries.stream(this.subscriptionId, cursor, PAGE);
      for (const event of events) this.send(event);
      if (events.length < PAGE) break;
      cursor = events.at(-1)!.cursor;
    }
    for (const [id, at] of this.sent) if (at < since) this.sent.delete(id);
  }

  private send(event: StreamedEvent): void {
    if (!after(event.cursor, this.floor) || this.sent.has(event.eventId)) return;
    const at = Date.parse(event.cursor.createdAt);
    this.sent.set(event.eventId, at);
    this.newest = Math.max(this.newest, at);
    this.connection.write(this.format(event));
  }
}

/** What a stream is asked to send: a stream subscription's deliveries, resumed after `Last-Event-ID` if any. */
export interface StreamRequest {
  subscriptionId: string;
  /** The client's `Last-Event-ID` (or an equivalent query parameter); undefined or empty for a new stream. */
  lastEventId: string | undefined;
  format: Format;
  /**
   * What a stream resumed with an id that is not (or no longer) known sends before it closes; without it, such a
   * stream starts from now (the webhook event stream, whose clients forward to a local tool).
   */
  unknownId?: (lastEventId: string) => string;
}

/** The open event streams of this instance, so that shutting down can end them. */
export class EventStreams {
  private readonly open = new Set<EventStream>();

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
      format: (event) => {
        const headers = deliveryHeaders({
          id: event.eventId,
          type: event.eventType,
          body: event.body,
          sentAt: this.service.now,
          secrets: this.service.openSecrets(subscription),
        });
        return sseEvent({ id: event.eventId, type: event.eventType, data: { body: event.body, headers } });
      },
    });
  }

  /** Takes over the reply and streams a stream subscription's deliveries (see `StreamRequest`). */
  async stream(request: FastifyRequest, reply: FastifyReply, asked: StreamRequest): Promise<void> {
    const { lastEventId } = asked;
    const resumed =
      lastEventId !== undefined && lastEventId !== '' ? await this.resumeAt(asked, lastEventId) : null;
    if (lastEventId && !resumed && asked.unknownId) {
      openSse(request, reply, `retry: 2000\n\n${asked.unknownId(lastEventId)}`, () => {}).end();
      return;
    }
    // Deliveries are stamped with the system time when captured, so the stream starts from the system time too.
    const floor = resumed ?? { createdAt: iso(Date.now()), id: '' };
    // A new stream's first id is its start, with no event: a client that loses the connection before the first
    // event resumes from there and misses nothing captured meanwhile.
    const first = resumed ? 'retry: 2000\n\n' : `retry: 2000\nid: ${START}${floor.createdAt}\n\n`;
    const stream: EventStream = new EventStream(
      this.storage,
      asked.subscriptionId,
      asked.format,
      (onClose) => openSse(request, reply, first, onClose),
      floor,
      () => this.open.delete(stream),
    );
    this.open.add(stream);
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
