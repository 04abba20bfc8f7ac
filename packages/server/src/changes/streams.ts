import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sseEvent, sseFrame } from '../http/sse.js';
import type { Storage } from '../storage/types.js';
import type { EventStreams } from '../webhooks/stream.js';

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

/** Serves `GET /api/v1/data/{collection}/changes` over the webhook event streams. */
export class ChangeStreams {
  /** Subscriptions this instance has made sure of: the next streams of their collection skip the write. */
  private readonly ensured = new Set<string>();

  constructor(
    private readonly storage: Storage,
    private readonly streams: EventStreams,
  ) {}

  /** Takes the reply over and streams the collection's events from now on, or after `lastEventId`. */
  async serve(
    request: FastifyRequest,
    reply: FastifyReply,
    ref: { clusterId: string; collection: string },
    lastEventId: string | undefined,
  ): Promise<void> {
    const subscriptionId = changesSubscriptionId(ref.clusterId, ref.collection);
    if (!this.ensured.has(subscriptionId)) {
      // Resolves once every write that starts afterwards captures the collection's events, on every instance:
      // a stream that starts after this misses nothing.
      await this.storage.webhooks.ensure({
        id: subscriptionId,
        clusterId: ref.clusterId,
        url: `${CHANGES_URL_PREFIX}${ref.collection}`,
        events: ['*'],
        collection: ref.collection,
        delivery: 'stream',
        // Never opened: a change stream sends the event's body, unsigned, to an authenticated client.
        secret: 'unused',
        createdAt: new Date().toISOString(),
      });
      this.ensured.add(subscriptionId);
    }
    await this.streams.stream(request, reply, {
      subscriptionId,
      lastEventId,
      format: (event) => sseFrame(event.eventId, event.eventType, event.body),
      unknownId: (id) =>
        sseEvent({
          id,
          type: 'error',
          data: {
            code: 'gone',
            message: `Event ${id} is not kept (or never was an event of this collection): reload, then stream from now.`,
          },
        }),
    });
  }
}
