import {
  subscriptionWants,
  WEBHOOK_SECRET_OVERLAP_MS,
  type WebhookDeliveryRecord,
  type WebhookSubscriptionRecord,
} from '@dataplatform/contract';
import type { DocumentChange } from './document-store.js';
import { createIdGenerator } from './ids.js';

/** A new signing secret as the server makes them: `whsec_` and the base64 of 32 random bytes. */
export function generateSecret(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

interface Stored {
  record: WebhookSubscriptionRecord;
  secret: string;
  previousSecret?: string;
}

/** True when the subscription is active and wants events of this kind in this collection (as on the server). */
function wants(record: WebhookSubscriptionRecord, change: DocumentChange): boolean {
  return record.active && subscriptionWants(record, change.type, change.collection);
}

/**
 * The webhook subscriptions of a mock instance and the deliveries their events would make. Writes capture
 * events as on the server, but the mocks send nothing: every delivery of an `http` subscription stays pending
 * with no attempts; those of a `stream` subscription are `streamed`, as on the server.
 */
export class WebhookStore {
  readonly #subscriptions = new Map<string, Stored>();
  #deliveries: WebhookDeliveryRecord[] = [];
  readonly #nextId = createIdGenerator();

  /** Forgets every subscription and delivery. */
  clear(): void {
    this.#subscriptions.clear();
    this.#deliveries = [];
  }

  /** Stores a subscription; the answer carries the secret, as the create route's does. */
  create(input: {
    url: string;
    events: string[];
    collection?: string;
    secret?: string;
    delivery?: WebhookSubscriptionRecord['delivery'];
  }): WebhookSubscriptionRecord & { secret: string } {
    const record: WebhookSubscriptionRecord = {
      _id: `wh_${this.#nextId()}`,
      url: input.url,
      events: [...new Set(input.events)] as WebhookSubscriptionRecord['events'],
      collection: input.collection ?? null,
      delivery: input.delivery ?? 'http',
      active: true,
      createdAt: new Date().toISOString(),
    };
    const secret = input.secret ?? generateSecret();
    this.#subscriptions.set(record._id, { record, secret });
    return { ...record, secret };
  }

  /** Every subscription, oldest first, without secrets. */
  list(): WebhookSubscriptionRecord[] {
    return [...this.#subscriptions.values()].map(({ record }) => ({ ...record }));
  }

  /** The subscription, or undefined. */
  get(id: string): WebhookSubscriptionRecord | undefined {
    const stored = this.#subscriptions.get(id);
    return stored && { ...stored.record };
  }

  /** Removes a subscription and its deliveries; false when there was none. */
  delete(id: string): boolean {
    this.#deliveries = this.#deliveries.filter((delivery) => delivery.webhookId !== id);
    return this.#subscriptions.delete(id);
  }

  /** Replaces the secret, keeping the old one for 24 hours; undefined when there is no such subscription. */
  rotate(id: string, secret: string = generateSecret()) {
    const stored = this.#subscriptions.get(id);
    if (!stored) return undefined;
    stored.previousSecret = stored.secret;
    stored.secret = secret;
    const previousSecretExpiresAt = new Date(Date.now() + WEBHOOK_SECRET_OVERLAP_MS).toISOString();
    return { ...stored.record, secret, previousSecretExpiresAt };
  }

  /** Records one delivery per subscription that wants the change's event. */
  capture(change: DocumentChange): void {
    const createdAt = new Date().toISOString();
    const eventId = `evt_${this.#nextId()}`;
    for (const { record } of this.#subscriptions.values()) {
      if (wants(record, change)) this.#deliver(record, eventId, change, createdAt);
    }
  }

  /**
   * Records the pending delivery of a test event to this subscription alone (its kind and collection checked by
   * the caller, as the server does), and answers it.
   */
  test(
    webhookId: string,
    event: { type: DocumentChange['type']; collection: string },
  ): WebhookDeliveryRecord {
    const change = { ...event, documentId: `test_${this.#nextId()}` };
    const { record } = this.#subscriptions.get(webhookId)!;
    return { ...this.#deliver(record, `evt_${this.#nextId()}`, change, new Date().toISOString()) };
  }

  /** A pending delivery, due now, or a `streamed` one (never due) for a stream subscription. */
  #deliver(
    subscription: WebhookSubscriptionRecord,
    eventId: string,
    change: Pick<DocumentChange, 'type' | 'collection' | 'documentId'>,
    createdAt: string,
  ): WebhookDeliveryRecord {
    const streamed = subscription.delivery === 'stream';
    const delivery: WebhookDeliveryRecord = {
      _id: `dlv_${this.#nextId()}`,
      webhookId: subscription._id,
      eventId,
      eventType: change.type,
      collection: change.collection,
      documentId: change.documentId,
      status: streamed ? 'streamed' : 'pending',
      attempts: 0,
      createdAt,
      lastAttemptAt: null,
      nextAttemptAt: streamed ? null : createdAt,
      lastResponseStatus: null,
      lastError: null,
    };
    this.#deliveries.push(delivery);
    return delivery;
  }

  /** A subscription's deliveries, newest first, optionally in one state. */
  deliveries(webhookId: string, status?: string): WebhookDeliveryRecord[] {
    return this.#deliveries
      .filter((d) => d.webhookId === webhookId && (status === undefined || d.status === status))
      .reverse()
      .map((d) => ({ ...d }));
  }

  /** One delivery of the subscription, or undefined. */
  delivery(webhookId: string, deliveryId: string): WebhookDeliveryRecord | undefined {
    const found = this.#deliveries.find((d) => d.webhookId === webhookId && d._id === deliveryId);
    return found && { ...found };
  }

  /**
   * Makes a delivery due now (it stays pending: the mocks send nothing). A `streamed` one is left as it is and
   * answered: the caller refuses it, as the server does.
   */
  resend(webhookId: string, deliveryId: string): WebhookDeliveryRecord | undefined {
    const found = this.#deliveries.find((d) => d.webhookId === webhookId && d._id === deliveryId);
    if (!found) return undefined;
    if (found.status === 'streamed') return { ...found };
    found.status = 'pending';
    found.nextAttemptAt = new Date().toISOString();
    return { ...found };
  }

  /** The deliveries now, to put back with `restore` (a transactional batch that aborted captured nothing). */
  snapshot(): WebhookDeliveryRecord[] {
    return [...this.#deliveries];
  }

  restore(snapshot: WebhookDeliveryRecord[]): void {
    this.#deliveries = snapshot;
  }
}
