import { z } from 'zod';
import { WebhookEvent } from './webhook.js';

const SubscriptionId = z
  .string()
  .min(1)
  .max(100)
  .meta({ description: "The client's name for the subscription: every message about it carries it" });

/** A client's message on `GET /api/v1/realtime`: start a subscription. */
export const RealtimeSubscribe = z
  .strictObject({
    type: z.literal('subscribe'),
    id: SubscriptionId,
    collection: z.string().min(1).max(200),
    where: z.string().min(1).max(10_000).optional().meta({
      description: "A condition in the SQL helper's WHERE grammar, as `where` of the change stream",
    }),
    params: z.array(z.unknown()).max(1000).optional().meta({ description: 'Values of its placeholders' }),
    since: z.string().min(1).max(200).optional().meta({
      description: 'An event id (or a `start_…` id) to resume after, as `Last-Event-ID` of the change stream',
    }),
  })
  .meta({ id: 'RealtimeSubscribe', description: "Subscribes to a collection's changes." });

/** A client's message on `GET /api/v1/realtime`: end a subscription. */
export const RealtimeUnsubscribe = z
  .strictObject({ type: z.literal('unsubscribe'), id: SubscriptionId })
  .meta({ id: 'RealtimeUnsubscribe', description: 'Ends a subscription.' });

/** What a client sends on `GET /api/v1/realtime`. */
export const RealtimeClientMessage = z.discriminatedUnion('type', [RealtimeSubscribe, RealtimeUnsubscribe]);
export type RealtimeClientMessage = z.infer<typeof RealtimeClientMessage>;

/** What the server sends on `GET /api/v1/realtime`, one JSON text message each. */
export const RealtimeServerMessage = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('subscribed'),
      id: z.string(),
      since: z.string().optional().meta({
        description: "A new subscription's start id (`start_…`): resume from it if nothing came before",
      }),
    }),
    z.object({ type: z.literal('event'), id: z.string(), event: WebhookEvent }),
    z.object({ type: z.literal('unsubscribed'), id: z.string() }),
    z.object({
      type: z.literal('error'),
      id: z
        .string()
        .optional()
        .meta({ description: 'The subscription it ended; absent for a refused message' }),
      code: z.string(),
      message: z.string(),
      lastEventId: z.string().optional().meta({ description: 'The last event id sent: resume from it' }),
    }),
  ])
  .meta({
    id: 'RealtimeServerMessage',
    description:
      "A message of the realtime WebSocket: a subscription's start, one of its events, its end, or an error.",
  });
export type RealtimeSubscribe = z.infer<typeof RealtimeSubscribe>;
