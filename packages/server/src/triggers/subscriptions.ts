import type { TriggerRow } from '../storage/triggers.js';
import type { NewSubscription } from '../storage/webhooks.js';

/**
 * Document triggers ride the webhook outbox: each active one owns a hidden subscription whose url is
 * `trigger:<id>`. The outbox captures its events in the write's own transaction, as for any subscription, and the
 * delivery worker hands them to the trigger runner instead of posting them, with the webhooks' retries and their
 * hold while the cluster is paused. The webhook routes never show these subscriptions.
 */
export const TRIGGER_URL_PREFIX = 'trigger:';

/** Prefix of the ids of triggers' hidden subscriptions (webhooks' own ids start with `wh_`). */
const SUBSCRIPTION_PREFIX = 'whk_';

/** The id of a trigger's hidden subscription. */
export function triggerSubscriptionId(triggerId: string): string {
  return `${SUBSCRIPTION_PREFIX}${triggerId}`;
}

/**
 * True for a document trigger's hidden subscription. Its deliveries run in order per document: the events of one
 * document run one after the other, in the order they were captured, while other documents' run alongside. Such a
 * delivery is never leased at capture, and a claim takes it only when no earlier delivery of its subscription for
 * the same document is pending (see the claims of storage/sqlite/deliveries.ts and storage/postgres/deliveries.ts).
 */
export function isTriggerSubscription(subscriptionId: string): boolean {
  return subscriptionId.startsWith(SUBSCRIPTION_PREFIX);
}

/** The SQL condition of `isTriggerSubscription` on a column, for both engines. */
export function isTriggerSubscriptionSql(column: string): string {
  return `${column} LIKE '${SUBSCRIPTION_PREFIX.replace('_', '!_')}%' ESCAPE '!'`;
}

/** True for the url of a trigger's hidden subscription (no webhook can have it: theirs are http or https). */
export function isTriggerUrl(url: string): boolean {
  return url.startsWith(TRIGGER_URL_PREFIX);
}

/** The trigger a hidden subscription's delivery belongs to. */
export function triggerIdOfUrl(url: string): string {
  return url.slice(TRIGGER_URL_PREFIX.length);
}

/** The hidden subscription of an active document trigger; null for schedules and paused triggers. */
export function subscriptionOf(trigger: TriggerRow, createdAt: string): NewSubscription | null {
  if (trigger.source.type !== 'document' || !trigger.active) return null;
  return {
    id: triggerSubscriptionId(trigger.id),
    clusterId: trigger.clusterId,
    url: `${TRIGGER_URL_PREFIX}${trigger.id}`,
    events: trigger.source.events,
    collection: trigger.source.collection ?? null,
    delivery: 'http',
    // Never opened: the worker does not sign what it hands to a trigger.
    secret: 'unused',
    createdAt,
  };
}
