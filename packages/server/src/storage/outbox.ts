import { subscriptionWants, type WebhookEventType } from '@dataplatform/contract';
import { storedText } from '../document-text.js';
import { ulid } from '../ids.js';
import { isTriggerSubscription, isTriggerSubscriptionSql } from '../triggers/subscriptions.js';
import type { CaptureTaker, ClaimedDelivery, TestEvent } from './deliveries.js';
import type { DocumentOperation, OperationResult } from './documents.js';
import type { OutboxSubscription, SubscriptionTarget } from './webhooks.js';

// The outbox: the events of a write and their deliveries, written in the write's own transaction so that an
// acknowledged write never loses its event and a rolled-back one never sends any. Engine-neutral here; each
// engine hooks `changeTargets` before its operations and `outboxRows` after them.

/**
 * The in-order rule of claims (triggers/subscriptions.ts, `isTriggerSubscription`): a delivery of a document trigger is
 * claimable only when no earlier delivery of its subscription for the same document is still pending (leased,
 * waiting for a retry, or not yet tried). Delivery ids are monotonic ULIDs, so their order is the capture order.
 * Plain SQL of both engines, on a claim's delivery `d`; a partial index of pending deliveries keeps it short.
 */
export const WAITS_FOR_NO_EARLIER = `NOT (${isTriggerSubscriptionSql('d.subscription_id')} AND EXISTS (
  SELECT 1 FROM webhook_deliveries p JOIN webhook_events pe ON pe.id = p.event_id
  JOIN webhook_events e ON e.id = d.event_id
  WHERE p.subscription_id = d.subscription_id AND p.status = 'pending' AND p.id < d.id
    AND pe.collection = e.collection AND pe.document_id = e.document_id))`;

/** One document change a write made, with the document's JSON text after it (or before it, for a delete). */
export interface DocumentChange {
  type: WebhookEventType;
  collection: string;
  documentId: string;
  data: string;
  /** For an update: the document before it. */
  previous?: string;
  /** Set for an event of the test route: no document changed. */
  test?: true;
}

/** An event row: its delivery body is fixed once, so every retry sends the same bytes. */
export interface EventRow {
  id: string;
  clusterId: string;
  type: WebhookEventType;
  collection: string;
  documentId: string;
  body: string;
  createdAt: string;
}

/**
 * A delivery row: one event for one subscription. `pending`: due at once or leased to this instance's worker.
 * `streamed`: for a `stream` subscription, only sent on its event stream, never due (no worker claims it).
 */
export interface DeliveryRow {
  id: string;
  subscriptionId: string;
  eventId: string;
  createdAt: string;
  status: 'pending' | 'streamed';
  nextAttemptAt: string | null;
}

/** A document an operation of the batch addresses. */
export interface Target {
  collection: string;
  id: string;
}

/** Key of a document within one cluster. */
export function targetKey(collection: string, id: string): string {
  return `${collection}\u0000${id}`;
}

/** The documents whose state before the batch its events need: those it replaces, patches or deletes. */
export function changeTargets(operations: readonly DocumentOperation[]): Target[] {
  const seen = new Map<string, Target>();
  for (const operation of operations) {
    if (operation.kind === 'replace' || operation.kind === 'update' || operation.kind === 'delete') {
      seen.set(targetKey(operation.collection, operation.id), {
        collection: operation.collection,
        id: operation.id,
      });
    }
  }
  return [...seen.values()];
}

/**
 * The changes made by the operations that succeeded, in order. `before` holds the documents' JSON text before
 * the batch (missing or null: no document); an operation's previous state is the one an earlier operation of
 * the same batch left, so two patches of one document each report their own step.
 */
export function changesOf(
  operations: readonly DocumentOperation[],
  results: readonly OperationResult[],
  before: ReadonlyMap<string, string | null>,
): DocumentChange[] {
  const state = new Map(before);
  const changes: DocumentChange[] = [];
  operations.forEach((operation, index) => {
    const result = results[index];
    if (!result?.ok) return;
    switch (operation.kind) {
      case 'insert': {
        const documentId = operation.row.id;
        const data = storedText(result);
        state.set(targetKey(operation.collection, documentId), data);
        changes.push({ type: 'document.created', collection: operation.collection, documentId, data });
        return;
      }
      case 'replace':
      case 'update': {
        const key = targetKey(operation.collection, operation.id);
        const previous = state.get(key) ?? undefined;
        const data = storedText(result);
        state.set(key, data);
        changes.push({
          type: 'document.updated',
          collection: operation.collection,
          documentId: operation.id,
          data,
          ...(previous === undefined ? {} : { previous }),
        });
        return;
      }
      case 'delete': {
        const key = targetKey(operation.collection, operation.id);
        const last = state.get(key);
        state.set(key, null);
        // A document deleted successfully existed; its last state comes from `before` or an earlier operation.
        const data = last ?? `{"_id":${JSON.stringify(operation.id)}}`;
        changes.push({
          type: 'document.deleted',
          collection: operation.collection,
          documentId: operation.id,
          data,
        });
        return;
      }
      default:
        return;
    }
  });
  return changes;
}

/** The JSON text of a delivery body; `data` and `previous` are stored JSON text, spliced in without parsing. */
export function eventBody(id: string, change: DocumentChange, createdAt: string): string {
  const head =
    `{"id":${JSON.stringify(id)},"type":"${change.type}","createdAt":"${createdAt}",` +
    `"collection":${JSON.stringify(change.collection)},"documentId":${JSON.stringify(change.documentId)},` +
    `"data":${change.data}`;
  const previous = change.previous === undefined ? '' : `,"previous":${change.previous}`;
  return `${head}${previous}${change.test ? ',"test":true' : ''}}`;
}

/** The event and delivery rows of a batch's changes: an event only where some subscription wants it. */
export function outboxRows(
  clusterId: string,
  subscriptions: readonly OutboxSubscription[],
  changes: readonly DocumentChange[],
  now: string,
  /** Set when this instance's worker takes the deliveries: they are leased to it until then. */
  leasedUntil?: string,
): OutboxRows {
  const rows: OutboxRows = { events: [], deliveries: [] };
  for (const change of changes) {
    const targets = subscriptions.filter((s) => subscriptionWants(s, change.type, change.collection));
    if (targets.length > 0) addEvent(rows, clusterId, change, targets, now, leasedUntil ?? now);
  }
  return rows;
}

/**
 * The rows of a test event (see the test route): one event, marked `"test": true`, with one delivery for `target`
 * alone, due at `now`. The caller has checked that the subscription wants it.
 */
export function testEventRows(
  clusterId: string,
  target: OutboxSubscription,
  event: TestEvent,
  now: string,
): OutboxRows {
  const rows: OutboxRows = { events: [], deliveries: [] };
  addEvent(rows, clusterId, { ...event, test: true }, [target], now, now);
  return rows;
}

/** Event and delivery rows, as one statement of each engine writes them. */
export interface OutboxRows {
  events: EventRow[];
  deliveries: DeliveryRow[];
}

function addEvent(
  rows: OutboxRows,
  clusterId: string,
  change: DocumentChange,
  targets: readonly OutboxSubscription[],
  now: string,
  nextAttemptAt: string,
): void {
  const id = `evt_${ulid()}`;
  rows.events.push({
    id,
    clusterId,
    type: change.type,
    collection: change.collection,
    documentId: change.documentId,
    body: eventBody(id, change, now),
    createdAt: now,
  });
  for (const subscription of targets) {
    const streamed = subscription.delivery === 'stream';
    rows.deliveries.push({
      id: `dlv_${ulid()}`,
      subscriptionId: subscription.id,
      eventId: id,
      createdAt: now,
      status: streamed ? 'streamed' : 'pending',
      // One that runs in order is never leased at capture: its claim is what waits for the earlier events.
      nextAttemptAt: streamed ? null : isTriggerSubscription(subscription.id) ? now : nextAttemptAt,
    });
  }
}

/** What a commit captured: the deliveries for the worker, and whether stream subscriptions got any. */
export interface Captured {
  /** The pending deliveries, as the worker needs them (when leased, only those leased to it). */
  deliveries: ClaimedDelivery[];
  /** Whether they are leased to this instance's worker. */
  leased: boolean;
  /** Whether some pending deliveries wait for a claim though the others are leased: those that run in order. */
  waiting: boolean;
  /** Whether some deliveries are `streamed`: event streams must hear of them though the worker never does. */
  streamed: boolean;
}

/** What `rows` captured, for the subscriptions they were made for. */
export function capturedOf(
  rows: { events: readonly EventRow[]; deliveries: readonly DeliveryRow[] },
  subscriptions: readonly SubscriptionTarget[],
  leased: boolean,
): Captured {
  const pending = claimedOf(rows, subscriptions);
  const deliveries = leased
    ? pending.filter((delivery) => !isTriggerSubscription(delivery.subscriptionId))
    : pending;
  return {
    deliveries,
    leased,
    waiting: deliveries.length < pending.length,
    streamed: rows.deliveries.some((delivery) => delivery.status === 'streamed'),
  };
}

/**
 * The pending deliveries of `rows` as the worker needs them, for the subscriptions they were made for; the
 * `streamed` ones are never the worker's.
 */
function claimedOf(
  rows: { events: readonly EventRow[]; deliveries: readonly DeliveryRow[] },
  subscriptions: readonly SubscriptionTarget[],
): ClaimedDelivery[] {
  const events = new Map(rows.events.map((event) => [event.id, event]));
  const targets = new Map(subscriptions.map((subscription) => [subscription.id, subscription]));
  return rows.deliveries
    .filter((delivery) => delivery.status === 'pending')
    .map((delivery) => {
      const event = events.get(delivery.eventId)!;
      const target = targets.get(delivery.subscriptionId)!;
      return {
        id: delivery.id,
        subscriptionId: target.id,
        clusterId: target.clusterId,
        ownerId: target.ownerId,
        eventId: event.id,
        eventType: event.type,
        body: event.body,
        url: target.url,
        secret: target.secret,
        previousSecret: target.previousSecret,
        previousSecretExpiresAt: target.previousSecretExpiresAt,
        attempts: 0,
        retries: 0,
        manual: false,
      };
    });
}

/**
 * What an engine's outbox shares: who wants to hear of captures (event streams), who wants to hear of deliveries
 * that wait for a claim (delivery workers), and this instance's taker.
 */
export class CaptureSignal {
  private readonly captureListeners = new Set<() => void>();
  private readonly dueListeners = new Set<() => void>();
  private taker: CaptureTaker | undefined;

  /** Hears of every commit that captured deliveries on this instance (and of announcements by others). */
  subscribe(listener: () => void): () => void {
    this.captureListeners.add(listener);
    return () => this.captureListeners.delete(listener);
  }

  /** Hears of deliveries that wait for a claim: not taken at capture, re-sent, or announced by another instance. */
  subscribeDue(listener: () => void): () => void {
    this.dueListeners.add(listener);
    return () => this.dueListeners.delete(listener);
  }

  /** Registers this instance's taker (see DeliveryStore.takeCaptured). */
  setTaker(taker: CaptureTaker): () => void {
    this.taker = taker;
    return () => {
      if (this.taker === taker) this.taker = undefined;
    };
  }

  /** Until when deliveries captured now are leased to this instance's taker; undefined without one. */
  leaseUntil(): string | undefined {
    return this.taker?.leaseUntil();
  }

  /**
   * After a commit: hands the deliveries to the taker when they were leased to it, else tells the workers; tells
   * the event streams of anything captured, `streamed` deliveries included.
   */
  committed({ deliveries, leased, waiting, streamed }: Captured): void {
    if (deliveries.length > 0) {
      if (leased && this.taker) this.taker.take([...deliveries]);
      else notify(this.dueListeners);
    } else if (!streamed && !waiting) {
      return;
    }
    if (waiting) notify(this.dueListeners);
    notify(this.captureListeners);
  }

  /** Deliveries wait for a claim (a re-send, or another instance's announcement). */
  due(): void {
    notify(this.dueListeners);
    notify(this.captureListeners);
  }
}

function notify(listeners: ReadonlySet<() => void>): void {
  for (const listener of listeners) {
    try {
      listener();
    } catch {
      // A listener's own failure is its business; the write already committed.
    }
  }
}
