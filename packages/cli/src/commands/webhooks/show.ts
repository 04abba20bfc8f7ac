import type {
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookEventType,
  WebhookSubscriptionRecord,
} from '@dataplatform/sdk';
import { InvalidArgumentError } from 'commander';
import type { Output } from '../../output/printer.js';

// The contract's lists, repeated: importing its values would load zod when `dp` starts.
/** The event types a delivery carries. */
export const EVENT_TYPES = [
  'document.created',
  'document.updated',
  'document.deleted',
] as const satisfies readonly WebhookEventType[];

/** What a subscription may ask for: an event type, or `*` for all. */
export type EventName = WebhookEventType | '*';

const EVENT_NAMES: readonly string[] = [...EVENT_TYPES, '*'];

/**
 * A commander parser for a repeatable event option that also takes comma-separated lists
 * (`--event document.created --event document.deleted`, or `--events document.created,document.deleted`).
 */
export function collectEvents(value: string, previous: EventName[] = []): EventName[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.find((name) => !EVENT_NAMES.includes(name));
  if (unknown !== undefined || names.length === 0) {
    throw new InvalidArgumentError(`expected ${EVENT_NAMES.join(', ')} (or a comma-separated list of them).`);
  }
  return [...previous, ...(names as EventName[])];
}

/** Whether a subscription would get an event of `type` in `collection` (any collection when not given). */
export function wants(subscription: WebhookSubscriptionRecord, type: WebhookEventType, collection?: string) {
  const events: readonly string[] = subscription.events;
  return (
    subscription.active &&
    (events.includes('*') || events.includes(type)) &&
    (subscription.collection === null || collection === undefined || subscription.collection === collection)
  );
}

/** How a subscription receives its events (the contract's modes, repeated for the reason above). */
export const DELIVERY_MODES = [
  'http',
  'stream',
] as const satisfies readonly WebhookSubscriptionRecord['delivery'][];

export const WEBHOOK_HEADER = ['id', 'url', 'events', 'collection', 'delivery', 'active', 'created'];

/** One row of `dp webhooks list`. */
export function webhookRow(webhook: WebhookSubscriptionRecord): unknown[] {
  return [
    webhook._id,
    webhook.url,
    webhook.events.join(','),
    webhook.collection ?? '*',
    webhook.delivery,
    webhook.active ? 'yes' : 'no (410 Gone)',
    webhook.createdAt,
  ];
}

/**
 * A subscription that comes with its secret (created or rotated): the record with --json, one JSON line when
 * piped (a script reads `_id` and `secret` from it), and on a terminal the row, the secret, and a warning that
 * it is shown only now.
 */
export async function writeWithSecret(
  out: Output,
  webhook: WebhookSubscriptionRecord & { secret: string },
  verb: string,
): Promise<void> {
  if (out.json) return void (await out.writeJson(webhook));
  if (!out.tty) return void (await out.writeJsonLine(webhook));
  const { secret, ...record } = webhook;
  await out.writeTable(WEBHOOK_HEADER, [webhookRow(record)]);
  await out.write(`\nsigning secret  ${out.style.bold(secret)}\n`);
  out.success(`${verb} webhook ${webhook._id}`);
  out.note(
    'The signing secret above is shown only now: store it where your receiver reads it (`dp webhooks rotate-secret` makes a new one)',
  );
}

export const DELIVERY_HEADER = [
  'id',
  'event',
  'type',
  'collection',
  'document',
  'status',
  'tries',
  'last',
  'next',
];

/** One row of `dp webhooks deliveries`. */
export function deliveryRow(delivery: WebhookDeliveryRecord): unknown[] {
  return [
    delivery._id,
    delivery.eventId,
    delivery.eventType,
    delivery.collection,
    delivery.documentId,
    delivery.status,
    delivery.attempts,
    delivery.lastResponseStatus ?? delivery.lastError ?? '-',
    delivery.nextAttemptAt ?? '-',
  ];
}

/** A delivery record: the record with --json, a JSON line when piped, a table row on a terminal. */
export async function writeDelivery(out: Output, delivery: WebhookDeliveryRecord): Promise<void> {
  if (out.json) return void (await out.writeJson(delivery));
  if (!out.tty) return void (await out.writeJsonLine(delivery));
  await out.writeTable(DELIVERY_HEADER, [deliveryRow(delivery)]);
}

export const ATTEMPT_HEADER = ['#', 'started', 'outcome', 'answer', 'took', 'error', 'retry at'];

/** One row of `dp webhooks attempts`. */
export function attemptRow(attempt: WebhookAttemptRecord): unknown[] {
  return [
    attempt.attempt,
    attempt.startedAt,
    attempt.status,
    attempt.responseStatus ?? '-',
    `${attempt.durationMs} ms`,
    attempt.error ?? '',
    attempt.nextAttemptAt ?? '-',
  ];
}
