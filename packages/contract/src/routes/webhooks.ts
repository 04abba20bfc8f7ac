import { Deleted } from '../schemas/common.js';
import {
  DeliveryParams,
  ListDeliveriesQuery,
  WebhookAttemptList,
  WebhookCreate,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookParams,
  WebhookSecretRotate,
  WebhookSecretRotation,
  WebhookStreamMessage,
  WebhookSubscription,
} from '../schemas/webhook.js';
import type { RouteDefinition } from './types.js';

const tag = 'webhooks';
const scopes = ['webhooks:manage'] as const;
const BASE = '/api/v1/data/webhooks';

const SIGNING = [
  'Each delivery is `POST url` with the event as its JSON body (`WebhookEvent`) and the headers `X-Webhook-Signature` (lowercase hex HMAC-SHA256 of the raw body keyed with the UTF-8 bytes of the secret), `X-Webhook-Id`, `X-Webhook-Event`, `X-Webhook-Timestamp` (Unix seconds), and the Standard Webhooks trio `webhook-id`, `webhook-timestamp`, `webhook-signature` (`v1,<base64>` over `id.timestamp.body`, keyed with the base64-decoded part of the secret after `whsec_`; left out when the secret is not base64).',
  'A 2xx answer within 10 s is a success; anything else is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (with jitter), then the delivery is failed and the cluster owner notified. Redirects are not followed. 410 Gone disables the subscription.',
  'Receiver addresses in private, loopback and link-local ranges are refused (400 `validation_error`) unless the server allows them; the check is made again at every delivery.',
].join('\n\n');

/** The webhook routes under /api/v1/data/webhooks; fixed paths that win over `/api/v1/data/{collection}`. */
export const webhookRoutes = [
  {
    id: 'webhooks.create',
    method: 'POST',
    path: BASE,
    tag,
    summary: 'Subscribe to document events',
    description: [
      'Creates a subscription: every later write in the cluster that matches `events` (and `collection`, when given) is delivered to `url`. The answer is the only time the secret is shown.',
      SIGNING,
    ].join('\n\n'),
    auth: 'data',
    scopes,
    body: WebhookCreate,
    success: { status: 201, description: 'The subscription, with its secret', schema: WebhookSubscription },
    errors: ['validation_error', 'invalid_json', 'invalid_body', 'payload_too_large'],
  },
  {
    id: 'webhooks.list',
    method: 'GET',
    path: BASE,
    tag,
    summary: 'List webhook subscriptions',
    description: 'Every subscription of the cluster, oldest first, without secrets.',
    auth: 'data',
    scopes,
    success: { status: 200, description: 'The subscriptions', schema: WebhookList },
    errors: [],
  },
  {
    id: 'webhooks.delete',
    method: 'DELETE',
    path: `${BASE}/{webhookId}`,
    tag,
    summary: 'Delete a webhook subscription',
    description: 'Stops every delivery of the subscription at once and forgets its deliveries and attempts.',
    auth: 'data',
    scopes,
    params: WebhookParams,
    success: { status: 200, description: 'The subscription was deleted', schema: Deleted },
    errors: ['validation_error', 'not_found'],
  },
  {
    id: 'webhooks.rotateSecret',
    method: 'POST',
    path: `${BASE}/{webhookId}/rotate-secret`,
    tag,
    summary: "Rotate a subscription's signing secret",
    description:
      'Replaces the secret (with the one given, or a generated one). For 24 hours the old secret stays valid: every delivery carries signatures with both, comma-separated hex values in `X-Webhook-Signature` and space-separated `v1,…` values in `webhook-signature`, so receivers can switch without losing events. Rotating again within the 24 hours drops the oldest secret at once.',
    auth: 'data',
    scopes,
    params: WebhookParams,
    body: WebhookSecretRotate,
    success: {
      status: 200,
      description: 'The subscription with its new secret',
      schema: WebhookSecretRotation,
    },
    errors: ['validation_error', 'invalid_json', 'invalid_body', 'not_found', 'payload_too_large'],
  },
  {
    id: 'webhooks.deliveries',
    method: 'GET',
    path: `${BASE}/{webhookId}/deliveries`,
    tag,
    summary: "List a subscription's deliveries",
    description:
      'One page of the deliveries of the subscription, newest first, optionally only those in one state.',
    auth: 'data',
    scopes,
    params: WebhookParams,
    query: ListDeliveriesQuery,
    success: { status: 200, description: 'A page of deliveries', schema: WebhookDeliveryList },
    errors: ['validation_error', 'not_found'],
  },
  {
    id: 'webhooks.attempts',
    method: 'GET',
    path: `${BASE}/{webhookId}/deliveries/{deliveryId}/attempts`,
    tag,
    summary: "List a delivery's attempts",
    description:
      'Every attempt of the delivery, first to last: its outcome, the HTTP status of the answer, how long it took, why it failed and when the retry is due.',
    auth: 'data',
    scopes,
    params: DeliveryParams,
    success: { status: 200, description: 'The attempts', schema: WebhookAttemptList },
    errors: ['validation_error', 'not_found'],
  },
  {
    id: 'webhooks.resend',
    method: 'POST',
    path: `${BASE}/{webhookId}/deliveries/{deliveryId}/resend`,
    tag,
    summary: 'Re-send a delivery',
    description:
      'Makes one more attempt at once, with the same event id and body. A pending delivery keeps its retry schedule; a succeeded or failed one gets this attempt only: if it fails, the delivery is failed again without retries.',
    auth: 'data',
    scopes,
    params: DeliveryParams,
    success: { status: 202, description: 'The delivery, due now', schema: WebhookDelivery },
    errors: ['validation_error', 'not_found'],
  },
  {
    id: 'webhooks.stream',
    method: 'GET',
    path: `${BASE}/{webhookId}/events`,
    tag,
    summary: "Stream a subscription's events",
    description:
      'Server-sent events: every event captured for the subscription from now on (or after the event named by a `Last-Event-ID` header), as `event: <type>`, `id: <event id>` and `data: WebhookStreamMessage` (the raw body and the signed headers a delivery of it carries, so a local tool can forward it). Deliveries to the subscription address go on as usual. A comment line every 15 s keeps the connection open.',
    auth: 'data',
    scopes,
    params: WebhookParams,
    success: {
      status: 200,
      description: 'A stream of server-sent events',
      schema: WebhookStreamMessage,
      contentType: 'text/event-stream',
    },
    errors: ['validation_error', 'not_found'],
  },
] as const satisfies readonly RouteDefinition[];
