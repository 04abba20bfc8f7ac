import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../auth/authenticate.js';
import { ApiError } from '../http/errors.js';
import { openSse, SSE_FORMAT, sseFrame } from '../http/sse.js';
import type { Storage } from '../storage/types.js';
import type { DeliveryFormat, DeliveryStream, EventStreams, OpenConnection } from '../webhooks/stream.js';
import type { EventFilter } from './filter.js';
import { ownerOf, type StreamGuard } from './guard.js';

/**
 * A collection's change stream rides the webhook outbox: the first stream of a (cluster, collection) creates a
 * hidden `stream` subscription, url `changes:<collection>`, for every event of the collection. The outbox captures
 * its events in each write's own transaction, as for any subscription, so an acknowledged write is never missing
 * from a stream; they are stored `streamed`, out of the delivery worker's reach, and kept (and forgotten) like every
 * finished delivery. The webhook routes never show these subscriptions (see the stores' NOT_TRIGGER).
 */
export const CHANGES_URL_PREFIX = 'changes:';

/** The id of the hidden subscription of a cluster's collection (fixed, so every instance finds the same one). */
export function changesSubscriptionId(clusterId: string, collection: string): string {
  const digest = createHash('sha256').update(`${clusterId}\n${collection}`).digest('hex');
  return `whc_${digest.slice(0, 32)}`;
}

const GONE =
  'This event is not kept (or never was an event of this collection): reload, then stream from now.';

const CHANGES_SSE: DeliveryFormat = {
  ...SSE_FORMAT,
  event: (event) => sseFrame(event.eventId, event.eventType, event.body),
};

/** One change stream asked for: whose, of what, from where, and through which connection. */
export interface ChangesRequest {
  /** The request that opened it: its credential is checked again whenever authentication may have changed. */
  request: FastifyRequest;
  principal: Principal;
  collection: string;
  filter: EventFilter | undefined;
  lastEventId: string | undefined;
  format: DeliveryFormat;
  open: OpenConnection;
}

/** Serves the change streams of collections (SSE and WebSocket subscriptions) over the webhook event streams. */
export class ChangeStreams {
  /** Subscriptions this instance has made sure of: the next streams of their collection skip the write. */
  private readonly ensured = new Set<string>();

  constructor(
    private readonly storage: Storage,
    private readonly streams: EventStreams,
    private readonly guard: StreamGuard,
    private readonly auth: Authenticator,
  ) {}

  /** `GET /api/v1/data/{collection}/changes`: takes the reply over and streams the collection's events. */
  async serve(
    request: FastifyRequest,
    reply: FastifyReply,
    asked: { principal: Principal; collection: string; filter: EventFilter | undefined },
    lastEventId: string | undefined,
  ): Promise<void> {
    await this.open({
      ...asked,
      request,
      lastEventId,
      format: CHANGES_SSE,
      open: (first, onClose) => openSse(request, reply, first, onClose),
    });
  }

  /**
   * Opens a change stream: counted against its owner's limit (429 `too_many_streams` before anything is sent), and
   * ended with an error when its credential stops holding. Undefined when it ended at once (an unknown id).
   */
  async open(asked: ChangesRequest): Promise<DeliveryStream | undefined> {
    const { principal, collection } = asked;
    const owner = ownerOf(principal);
    this.guard.admit(owner);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.guard.release(owner);
      this.guard.forget(guarded);
    };
    const guarded = {
      owner,
      check: () => this.check(asked),
      end: (error: ApiError) => stream?.fail({ code: error.code, message: error.message }),
    };
    let stream: DeliveryStream | undefined;
    try {
      const subscriptionId = await this.ensure(principal.clusterId, collection);
      stream = await this.streams.start(
        {
          subscriptionId,
          lastEventId: asked.lastEventId,
          format: asked.format,
          ...(asked.filter ? { filter: asked.filter } : {}),
          unknownId: GONE,
        },
        (first, onClose) =>
          asked.open(first, () => {
            release();
            onClose();
          }),
      );
    } catch (error) {
      release();
      throw error;
    }
    if (!stream) release();
    else if (!released) this.guard.watch(guarded);
    return stream;
  }

  /** Null while the stream's credential still reads the collection; else the error that now refuses it. */
  private async check(asked: ChangesRequest): Promise<ApiError | null> {
    try {
      await this.allowed(asked.request, asked.principal);
      return null;
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
  }

  /** Throws the ApiError that refuses the request's credential now, if any (nothing is counted). */
  async allowed(request: FastifyRequest, principal: Principal): Promise<void> {
    const now = await this.auth.authenticate(request, undefined, ['data:read'], 'read');
    if (now.clusterId !== principal.clusterId) throw new ApiError('unauthorized');
  }

  /** The hidden subscription of the collection, made once. */
  private async ensure(clusterId: string, collection: string): Promise<string> {
    const subscriptionId = changesSubscriptionId(clusterId, collection);
    if (this.ensured.has(subscriptionId)) return subscriptionId;
    // Resolves once every write that starts afterwards captures the collection's events, on every instance:
    // a stream that starts after this misses nothing.
    await this.storage.webhooks.ensure({
      id: subscriptionId,
      clusterId,
      url: `${CHANGES_URL_PREFIX}${collection}`,
      events: ['*'],
      collection,
      delivery: 'stream',
      // Never opened: a change stream sends the event's body, unsigned, to an authenticated client.
      secret: 'unused',
      createdAt: new Date().toISOString(),
    });
    this.ensured.add(subscriptionId);
    return subscriptionId;
  }
}
