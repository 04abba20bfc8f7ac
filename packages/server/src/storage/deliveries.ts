import type { WebhookEventType } from '@dataplatform/contract';

/** Takes the deliveries this instance's writes capture, leased to it, right after their commit. */
export interface CaptureTaker {
  /** Until when deliveries captured now stay leased to the taker (as a claim's lease, on the taker's clock). */
  leaseUntil(): string;
  take(deliveries: ClaimedDelivery[]): void;
}

/** Where a delivery stands; `streamed`: of a `stream` subscription, never posted (no worker claims it). */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'streamed';

/** A delivery as the routes show it. */
export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: WebhookEventType;
  collection: string;
  documentId: string;
  status: DeliveryStatus;
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  lastResponseStatus: number | null;
  lastError: string | null;
}

/** An attempt as the routes show it. */
export interface AttemptRecord {
  id: string;
  deliveryId: string;
  attempt: number;
  startedAt: string;
  status: 'succeeded' | 'failed';
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  nextAttemptAt: string | null;
}

/** A delivery claimed by the worker, with everything needed to send it. */
export interface ClaimedDelivery {
  id: string;
  subscriptionId: string;
  clusterId: string;
  /** The cluster's owner, told when the delivery fails for good. */
  ownerId: string;
  eventId: string;
  eventType: WebhookEventType;
  body: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  /** Attempts made before this one. */
  attempts: number;
  /** Automatic retries used so far. */
  retries: number;
  /** A re-send of a finished delivery: one attempt, no retries. */
  manual: boolean;
}

/** The result of one attempt and what becomes of the delivery. */
export interface FinishedAttempt {
  attemptId: string;
  deliveryId: string;
  startedAt: string;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  succeeded: boolean;
  /** The delivery's new state: pending with a next attempt, or final. */
  next: { status: DeliveryStatus; nextAttemptAt: string | null; retries: number };
  /**
   * Set when the receiver answered 410: the subscription is turned off and its other pending deliveries fail
   * with this reason, in the same transaction as the attempt.
   */
  disable?: { subscriptionId: string; reason: string };
}

/** One event of a subscription, as the event stream sends it. */
export interface StreamedEvent {
  /** Orders the stream: a delivery's creation time and id. */
  cursor: { createdAt: string; id: string };
  eventId: string;
  eventType: WebhookEventType;
  body: string;
}

/** A test event for one subscription (the test route): what a document change would carry; none happened. */
export interface TestEvent {
  type: WebhookEventType;
  collection: string;
  documentId: string;
  /** The sample document, as JSON text. */
  data: string;
  /** For `document.updated`: the sample document before, as JSON text. */
  previous?: string;
}

/** Deliveries and their attempts: what the worker claims and records, and what the routes list. */
export interface DeliveryStore {
  /**
   * Claims up to `limit` pending deliveries due at `now`, moving their next attempt to `leaseUntil` so that no
   * other worker takes them meanwhile (a worker that dies lets them come due again then).
   */
  claim(now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt and the delivery's new state (and turns the subscription off on 410), together. */
  finish(attempt: FinishedAttempt): Promise<void>;
  /** One page of a subscription's deliveries, newest first. */
  list(
    subscriptionId: string,
    page: { status?: DeliveryStatus; limit: number; skip: number },
  ): Promise<{ rows: DeliveryRecord[]; total: number }>;
  /** The attempts of a delivery of this subscription, in order; null when it has no such delivery. */
  attempts(subscriptionId: string, deliveryId: string): Promise<AttemptRecord[] | null>;
  /**
   * Makes a delivery of this subscription due at `now` (see the resend route); null when there is none. A
   * `streamed` delivery is left as it is and answered: the caller refuses it.
   */
  resend(subscriptionId: string, deliveryId: string, now: string): Promise<DeliveryRecord | null>;
  /**
   * Writes a test event with one delivery, due now, for this subscription of the cluster alone (no other
   * subscription gets it), and wakes the delivery workers and event streams as a write's capture does, on every
   * instance. Null when the cluster has no such subscription.
   */
  createTest(clusterId: string, subscriptionId: string, event: TestEvent): Promise<DeliveryRecord | null>;
  /** Up to `limit` of the subscription's events whose cursor comes after `after`, oldest first. */
  stream(subscriptionId: string, after: StreamedEvent['cursor'], limit: number): Promise<StreamedEvent[]>;
  /** The same events' cursors and ids alone, without their bodies (what a feed's look back checks). */
  streamCursors(
    subscriptionId: string,
    after: StreamedEvent['cursor'],
    limit: number,
  ): Promise<Pick<StreamedEvent, 'cursor' | 'eventId'>[]>;
  /**
   * Forgets finished deliveries (succeeded, failed or streamed) created before `before`, with their attempts, and
   * the events no delivery needs any more; returns how many deliveries went.
   */
  purgeFinished(before: string): Promise<number>;
  /** The cursor of the delivery of `eventId` to this subscription, for a stream resumed with Last-Event-ID. */
  cursorOf(subscriptionId: string, eventId: string): Promise<StreamedEvent['cursor'] | null>;
  /**
   * Calls `listener` after a write of this instance captured deliveries (and, on PostgreSQL, when another
   * instance announces deliveries): what event streams listen to. Returns a function that stops the calls.
   */
  onCaptured(listener: () => void): () => void;
  /**
   * Calls `listener` when deliveries wait for a claim: captured without a taker, re-sent, or announced by another
   * instance (PostgreSQL NOTIFY). What delivery workers listen to. Returns a function that stops the calls.
   */
  onDue(listener: () => void): () => void;
  /**
   * Makes `taker` (this instance's delivery worker) the taker of what this instance's writes capture: their
   * deliveries are stored already leased to it and handed over after the commit, so the first attempt needs no
   * claim. Without a taker, captured deliveries are due at once for any worker to claim. Returns a function that
   * ends the arrangement.
   */
  takeCaptured(taker: CaptureTaker): () => void;
}
