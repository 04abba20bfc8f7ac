import { z } from 'zod';
import { fromQuery, listEnvelope, Timestamp } from './common.js';
import { CollectionName } from './document.js';

/** Event kinds a subscription can name; `*` stands for all. */
export const WEBHOOK_EVENTS = ['document.created', 'document.updated', 'document.deleted', '*'] as const;

/** The kinds of event a delivery can carry (every entry of WEBHOOK_EVENTS but `*`). */
export const WEBHOOK_EVENT_TYPES = ['document.created', 'document.updated', 'document.deleted'] as const;

/** A kind of event a delivery carries. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * How a subscription receives its events: `http`, posted by the server to its url; `stream`, only on its event
 * stream (`GET …/webhooks/{webhookId}/events`), for a local tool that forwards them to the url.
 */
export const WEBHOOK_DELIVERY_MODES = ['http', 'stream'] as const;

/** How a subscription receives its events. */
export type WebhookDeliveryMode = (typeof WEBHOOK_DELIVERY_MODES)[number];

const DELIVERY_MODE_DESCRIPTION =
  '`http` (the default): the server posts each event to `url`, retrying and recording attempts. `stream`: the server never posts; events are only captured for the event stream (`GET …/webhooks/{webhookId}/events`) and `url` is just recorded (the address a local tool such as `dp webhooks listen` forwards to), so private and loopback addresses are accepted.';

/** A supplied signing secret: 16 to 128 characters. */
const SigningSecret = z.string().min(16).max(128);

/** Request to create a webhook subscription. */
export const WebhookCreate = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .meta({
        description:
          'Absolute http or https delivery address; for a `stream` subscription, only recorded (see `delivery`)',
      }),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1),
    collection: CollectionName.optional().meta({
      description: 'Restricts the subscription to one collection',
    }),
    secret: SigningSecret.optional().meta({
      description:
        'Signing secret of 16 to 128 characters; generated (`whsec_` + base64 of 32 bytes) when left out',
    }),
    delivery: z
      .enum(WEBHOOK_DELIVERY_MODES)
      .optional()
      .meta({
        description: `How events reach the subscription; \`http\` when left out. ${DELIVERY_MODE_DESCRIPTION}`,
      }),
  })
  .meta({ id: 'WebhookCreate', description: 'A new webhook subscription.' });

/** A stored webhook subscription (the secret is returned only at creation). */
export const WebhookSubscription = z
  .object({
    _id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    collection: z.string().nullable(),
    delivery: z.enum(WEBHOOK_DELIVERY_MODES).meta({ description: DELIVERY_MODE_DESCRIPTION }),
    active: z
      .boolean()
      .meta({ description: 'False once a receiver answered 410 Gone: nothing is delivered any more' }),
    createdAt: Timestamp,
    secret: z.string().optional().meta({ description: 'Only in the answer to creation' }),
  })
  .meta({ id: 'WebhookSubscription', description: 'A webhook subscription.' });

/** The subscriptions of the caller's cluster. */
export const WebhookList = z
  .object({ data: z.array(WebhookSubscription) })
  .meta({ id: 'WebhookList', description: 'Every webhook subscription of the cluster, oldest first.' });

/** Path of a subscription's routes. */
export const WebhookParams = z.object({
  webhookId: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: 'Webhook id', example: 'wh_01JD4X1Q3W4W7T2V1N0A5K9G2B' }),
});

/** Path of a delivery's routes. */
export const DeliveryParams = WebhookParams.extend({
  deliveryId: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: 'Delivery id', example: 'dlv_01JD4X1Q3W4W7T2V1N0A5K9G2B' }),
});

/** Where a delivery stands. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'streamed'] as const;

/** One event on its way to one subscription's address. */
export const WebhookDelivery = z
  .object({
    _id: z.string(),
    webhookId: z.string(),
    eventId: z.string().meta({ description: 'The event id (`evt_…`), also sent as `webhook-id`' }),
    eventType: z.enum(WEBHOOK_EVENT_TYPES),
    collection: z.string(),
    documentId: z.string(),
    status: z.enum(DELIVERY_STATUSES).meta({
      description:
        '`pending` until a 2xx answer (`succeeded`) or until the last retry failed, the receiver answered 410, or a re-send failed (`failed`). `streamed` for every delivery of a `stream` subscription: never posted over HTTP (no attempts, no retries), only sent on the event stream.',
    }),
    attempts: z.number().int().min(0).meta({ description: 'Attempts made so far' }),
    createdAt: Timestamp,
    lastAttemptAt: Timestamp.nullable(),
    nextAttemptAt: Timestamp.nullable().meta({
      description: 'When the next attempt is due; null once final',
    }),
    lastResponseStatus: z.number().int().nullable(),
    lastError: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery', description: 'The delivery of one event to one subscription.' });

/** Query of the deliveries list. */
export const ListDeliveriesQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional().meta({ description: 'Only deliveries in this state' }),
  limit: fromQuery(
    z.coerce.number().int().min(1).max(1000).default(50).meta({ description: 'Page size, 1 to 1000' }),
  ),
  skip: fromQuery(
    z.coerce.number().int().min(0).default(0).meta({ description: 'Number of deliveries to skip' }),
  ),
});

/** A page of a subscription's deliveries, newest first. */
export const WebhookDeliveryList = listEnvelope(WebhookDelivery, 'WebhookDeliveryList');

/** One try at delivering an event. */
export const WebhookAttempt = z
  .object({
    _id: z.string(),
    deliveryId: z.string(),
    attempt: z.number().int().min(1).meta({ description: '1 for the first attempt of the delivery' }),
    startedAt: Timestamp,
    status: z.enum(['succeeded', 'failed']),
    responseStatus: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'HTTP status of the answer; null when none came' }),
    durationMs: z.number().int().min(0),
    error: z.string().nullable().meta({ description: 'Why the attempt failed, when it did' }),
    nextAttemptAt: Timestamp.nullable().meta({
      description: 'When the retry is due; null when none follows',
    }),
  })
  .meta({ id: 'WebhookAttempt', description: 'One attempt of a delivery.' });

/** Every attempt of a delivery, in order. */
export const WebhookAttemptList = z
  .object({ data: z.array(WebhookAttempt) })
  .meta({ id: 'WebhookAttemptList', description: 'The attempts of a delivery, first to last.' });

/** Request to rotate a subscription's secret. */
export const WebhookSecretRotate = z
  .strictObject({
    secret: SigningSecret.optional().meta({
      description: 'The new secret; generated (`whsec_` + base64 of 32 bytes) when left out',
    }),
  })
  .meta({ id: 'WebhookSecretRotate', description: 'Replaces the signing secret of a subscription.' });

/** Answer of a rotation: the subscription, its new secret, and until when the old one still signs. */
export const WebhookSecretRotation = WebhookSubscription.extend({
  secret: z.string().meta({ description: 'The new secret; shown only here' }),
  previousSecretExpiresAt: Timestamp.meta({
    description: 'Until then every delivery carries a signature with the old secret too',
  }),
}).meta({ id: 'WebhookSecretRotation', description: 'A subscription after its secret was rotated.' });

/** Request to send a test event to one subscription; every field is optional. */
export const WebhookTestEvent = z
  .strictObject({
    type: z.enum(WEBHOOK_EVENT_TYPES).optional().meta({
      description:
        'The kind of event; defaults to the first kind the subscription names (`document.created` for `*`). One it does not want is refused.',
    }),
    collection: CollectionName.optional().meta({
      description:
        "The event's collection; defaults to the subscription's collection, or `test` when it has none. Another than the subscription's is refused.",
    }),
  })
  .meta({ id: 'WebhookTestEvent', description: 'A test event to send to one subscription.' });

/** The body of a delivery: what a receiver gets. */
export const WebhookEvent = z
  .object({
    id: z
      .string()
      .meta({ description: 'Event id, `evt_…`; the same on every retry, so receivers de-duplicate by it' }),
    type: z.enum(WEBHOOK_EVENT_TYPES),
    createdAt: Timestamp,
    collection: z.string(),
    documentId: z.string(),
    data: z.record(z.string(), z.unknown()).meta({
      description: 'The document after the change; for `document.deleted`, the document as it was',
    }),
    previous: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'For `document.updated`: the document before the change' }),
    test: z.boolean().optional().meta({
      description:
        'True only for an event made by the test route (`POST …/webhooks/{webhookId}/test`): no document changed, and `documentId` is `test_…`. Absent from events of real writes.',
    }),
  })
  .meta({ id: 'WebhookEvent', description: 'An event as a receiver gets it.' });

/** A delivery body as a receiver gets it. */
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** One message of the event stream (`data:` of a server-sent event). */
export const WebhookStreamMessage = z
  .object({
    body: z.string().meta({ description: 'The raw delivery body (the JSON text of a WebhookEvent)' }),
    headers: z
      .record(z.string(), z.string())
      .meta({ description: 'The signature and id headers a delivery of this body carries' }),
  })
  .meta({
    id: 'WebhookStreamMessage',
    description:
      'The `data` of each server-sent event (`event:` is the event type, `id:` the event id): a body and the headers to forward it with.',
  });
