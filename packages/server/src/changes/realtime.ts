import { checkCollectionName, RealtimeClientMessage, type RealtimeSubscribe } from '@dataplatform/contract';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Principal } from '../auth/authenticate.js';
import { ApiError } from '../http/errors.js';
import type { StreamConnection } from '../http/event-stream.js';
import { rejectViolation } from '../http/validate.js';
import type { DeliveryFormat, DeliveryStream } from '../webhooks/stream.js';
import { eventFilter } from './filter.js';
import type { ChangeStreams } from './streams.js';

/** How often an idle connection is pinged, so proxies keep it open (as the change stream's comment lines). */
const PING_MS = 15_000;
/** How often a subscription waiting for a slow reader looks whether the socket took its backlog. */
const DRAIN_POLL_MS = 50;

/** The messages of one subscription, tagged with its id. */
function formatOf(id: string): DeliveryFormat {
  const tag = JSON.stringify(id);
  return {
    start: (since) => JSON.stringify({ type: 'subscribed', id, ...(since ? { since } : {}) }),
    event: (event) => `{"type":"event","id":${tag},"event":${event.body}}`,
    error: (error, lastEventId) =>
      JSON.stringify({ type: 'error', id, ...error, ...(lastEventId ? { lastEventId } : {}) }),
  };
}

/**
 * `GET /api/v1/realtime`: one WebSocket of an authenticated caller carrying many change-stream subscriptions, each
 * opened through `ChangeStreams` like an SSE change stream (same limit, filters, resumption and credential checks).
 */
export class Realtime {
  constructor(private readonly changes: ChangeStreams) {}

  /** Serves the messages of an upgraded connection until it closes. */
  serve(socket: WebSocket, request: FastifyRequest): void {
    const principal = request.principal!;
    const subscriptions = new Map<string, DeliveryStream | 'opening'>();
    const ping = setInterval(() => socket.ping(), PING_MS);
    const send = (message: unknown) => socket.send(JSON.stringify(message));
    socket.on('message', (data, isBinary) => {
      const message = isBinary ? undefined : parse(String(data));
      if (!message) {
        send({
          type: 'error',
          code: 'validation_error',
          message: 'Messages are JSON: subscribe or unsubscribe',
        });
        return;
      }
      if (message.type === 'unsubscribe') {
        const stream = subscriptions.get(message.id);
        if (stream && stream !== 'opening') stream.close();
        subscriptions.delete(message.id);
        send({ type: 'unsubscribed', id: message.id });
        return;
      }
      if (subscriptions.has(message.id)) {
        send({
          type: 'error',
          code: 'validation_error',
          message: `Subscription ${message.id} is open already`,
        });
        return;
      }
      subscriptions.set(message.id, 'opening');
      this.subscribe(socket, request, principal, message, () => subscriptions.delete(message.id))
        .then((stream) => {
          // Unsubscribed (or closed) while it opened.
          if (stream && subscriptions.get(message.id) !== 'opening') stream.close();
          else if (stream) subscriptions.set(message.id, stream);
          else subscriptions.delete(message.id);
        })
        .catch((error: unknown) => {
          subscriptions.delete(message.id);
          const refused = error instanceof ApiError ? error : new ApiError('internal_error');
          send({ type: 'error', id: message.id, code: refused.code, message: refused.message });
        });
    });
    socket.on('close', () => {
      clearInterval(ping);
      for (const stream of subscriptions.values()) if (stream !== 'opening') stream.close();
      subscriptions.clear();
    });
  }

  private async subscribe(
    socket: WebSocket,
    request: FastifyRequest,
    principal: Principal,
    message: RealtimeSubscribe,
    onEnd: () => void,
  ): Promise<DeliveryStream | undefined> {
    rejectViolation(checkCollectionName(message.collection));
    // The connection outlives its credential's checks: each subscription is checked again as it opens.
    await this.changes.allowed(request, principal);
    const filter = await eventFilter(message.where, message.params);
    return this.changes.open({
      request,
      principal,
      collection: message.collection,
      filter,
      lastEventId: message.since,
      format: formatOf(message.id),
      open: (first, onClose) => {
        const connection = subscriptionConnection(socket, () => {
          onEnd();
          onClose();
        });
        connection.write(first);
        return connection;
      },
    });
  }
}

function parse(text: string): RealtimeClientMessage | undefined {
  try {
    const parsed = RealtimeClientMessage.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** One subscription's share of the socket: its writes, the socket's backlog, and its own end. */
function subscriptionConnection(socket: WebSocket, onClose: () => void): StreamConnection {
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    socket.off('close', end);
    onClose();
  };
  socket.on('close', end);
  return {
    write: (text) => {
      if (!ended && socket.readyState === socket.OPEN) socket.send(text);
    },
    buffered: () => socket.bufferedAmount,
    drained: (ms) =>
      new Promise((resolve) => {
        const deadline = Date.now() + ms;
        const look = () => {
          if (socket.bufferedAmount === 0) resolve(true);
          else if (ended || Date.now() > deadline) resolve(false);
          else setTimeout(look, DRAIN_POLL_MS);
        };
        look();
      }),
    end,
  };
}
