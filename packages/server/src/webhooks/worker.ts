import type { FastifyBaseLogger } from 'fastify';
import { ulid } from '../ids.js';
import type { Notifier } from '../notifications/notifier.js';
import type { ClaimedDelivery, FinishedAttempt } from '../storage/deliveries.js';
import type { Storage } from '../storage/types.js';
import { isTriggerUrl } from '../triggers/subscriptions.js';
import { type Clock, iso } from './clock.js';
import { DELIVERY_TIMEOUT_MS, type PostResult } from './dispatch.js';
import { retryDelay } from './schedule.js';
import type { DeliverySender } from './sender.js';

/**
 * How long a claimed delivery stays with its worker: twice an attempt's limit (10 s), so a live worker always
 * records it first, and a worker that died lets it come due again soon.
 */
const CLAIM_LEASE_MS = 2 * DELIVERY_TIMEOUT_MS;
/** Retries due sooner than this get a timer of their own; later ones are found by polling. */
const TIMED_RETRY_MS = 60_000;
/** Captured deliveries waiting for a free slot; past this, the rest wait for their lease to end and are claimed. */
const QUEUE_LIMIT = 10_000;

/** Runs a document trigger for a delivery of its hidden subscription; the result counts as an attempt's. */
export type TriggerDelivery = (delivery: ClaimedDelivery) => Promise<PostResult>;

/** Settings of the delivery worker. */
export interface WorkerOptions {
  storage: Storage;
  sender: DeliverySender;
  clock: Clock;
  /** Delays of the retries, in milliseconds. */
  schedule: readonly number[];
  /** How often the database is asked for due deliveries when nothing wakes the worker. */
  pollIntervalMs: number;
  /** Deliveries in flight at once. */
  concurrency: number;
  log: FastifyBaseLogger;
  /** Told of every attempt made, with its cluster: billing meters webhook deliveries by it. */
  onAttempt?: (clusterId: string) => void;
  /** Tells the subscription's owner when it fails for good or is disabled. */
  notifier?: Notifier;
}

/**
 * Sends deliveries. The deliveries this instance's writes capture are leased to it in the write's transaction
 * and handed over right after the commit, so a first attempt leaves without a claim; everything else (retries,
 * re-sends, what another instance captured without a worker, what a stopped instance left) is claimed from the
 * database, where several instances never claim the same delivery. Each delivery is posted signed, its attempt
 * recorded and its retry scheduled. Claims are made when a retry it scheduled comes due, when a re-send or
 * another instance announces deliveries, and otherwise every `pollIntervalMs`. The deliveries of `stream`
 * subscriptions never reach it: they are stored `streamed`, neither handed over nor claimable.
 */
export class DeliveryWorker {
  private inFlight = 0;
  private draining = false;
  private again = false;
  private stopped = true;
  private poller: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private stopTaking: (() => void) | undefined;
  private readonly queue: ClaimedDelivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly active = new Set<Promise<void>>();
  private runTrigger: TriggerDelivery | undefined;

  constructor(private readonly options: WorkerOptions) {}

  /**
   * Hands the deliveries of document triggers' hidden subscriptions to `run` instead of posting them: they get the
   * webhooks' capture, retries and hold while the cluster is paused (triggers/subscriptions.ts).
   */
  useTriggers(run: TriggerDelivery): void {
    this.runTrigger = run;
  }

  start(): void {
    this.stopped = false;
    const { deliveries } = this.options.storage;
    this.stopTaking = deliveries.takeCaptured({
      // On the worker's clock, which its claims compare with.
      leaseUntil: () => iso(this.options.clock.now() + CLAIM_LEASE_MS),
      take: (taken) => this.take(taken),
    });
    this.unsubscribe = deliveries.onDue(() => this.wake());
    this.poller = setInterval(() => this.wake(), this.options.pollIntervalMs);
    this.poller.unref();
    this.wake();
  }

  /** Looks for due deliveries now (several calls while it looks are folded into one more look). */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = true;
    this.drain()
      .catch((error) => this.options.log.error({ err: error }, 'claiming webhook deliveries failed'))
      .finally(() => {
        this.draining = false;
        // A wake that came after the last look but before this point would be lost otherwise.
        if (this.again) this.wake();
      });
  }

  /** Sends deliveries captured by this instance's writes (already leased to this worker). */
  private take(deliveries: readonly ClaimedDelivery[]): void {
    if (this.stopped) return;
    for (const delivery of deliveries) if (this.queue.length < QUEUE_LIMIT) this.queue.push(delivery);
    this.pump();
  }

  private pump(): void {
    while (this.queue.length > 0 && this.inFlight < this.options.concurrency) this.track(this.queue.shift()!);
  }

  /** Stops taking and claiming, and waits for the deliveries in flight (queued ones come due after their lease). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopTaking?.();
    this.queue.length = 0;
    clearInterval(this.poller);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.unsubscribe?.();
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }

  private async drain(): Promise<void> {
    const { storage, clock, concurrency } = this.options;
    do {
      this.again = false;
      const room = concurrency - this.inFlight - this.queue.length;
      // At capacity: the delivery that finishes first wakes the worker again.
      if (room <= 0) return;
      const now = clock.now();
      const claimed = await storage.deliveries.claim(iso(now), iso(now + CLAIM_LEASE_MS), room);
      for (const delivery of claimed) this.track(delivery);
      if (claimed.length === room) this.again = true;
    } while (this.again && !this.stopped);
  }

  private track(delivery: ClaimedDelivery): void {
    this.inFlight++;
    const running = this.deliver(delivery)
      .catch((error) =>
        this.options.log.error({ err: error, delivery: delivery.id }, 'webhook delivery failed'),
      )
      .finally(() => {
        this.inFlight--;
        this.active.delete(running);
        if (this.queue.length > 0) this.pump();
        else if (this.inFlight === this.options.concurrency - 1) this.wake();
      });
    this.active.add(running);
  }

  /** One attempt: sign, post, record, and then disable, notify or schedule the retry. */
  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const { clock, storage } = this.options;
    const startedAt = clock.now();
    const result = isTriggerUrl(delivery.url)
      ? await (this.runTrigger?.(delivery) ??
          Promise.resolve({ responseStatus: null, error: 'triggers are not running here', durationMs: 0 }))
      : await this.options.sender.send(
          { ...delivery, id: delivery.subscriptionId },
          { id: delivery.eventId, type: delivery.eventType, body: delivery.body },
          startedAt,
        );
    const succeeded = result.error === null;
    const gone = result.responseStatus === 410;
    const next = this.nextState(delivery, succeeded, gone);
    const attempt: FinishedAttempt = {
      attemptId: `att_${ulid()}`,
      deliveryId: delivery.id,
      startedAt: iso(startedAt),
      durationMs: result.durationMs,
      responseStatus: result.responseStatus,
      error: result.error,
      succeeded,
      next,
      ...(gone
        ? {
            disable: {
              subscriptionId: delivery.subscriptionId,
              reason: 'the receiver answered 410 Gone: the subscription was disabled',
            },
          }
        : {}),
    };
    await storage.deliveries.finish(attempt);
    // A trigger's run is metered as its function's invocation (services/functions.ts), not as a delivery.
    if (!isTriggerUrl(delivery.url)) this.options.onAttempt?.(delivery.clusterId);
    // A document trigger's next event of the same document waited for this one to end (WAITS_FOR_NO_EARLIER).
    if (next.status !== 'pending' && isTriggerUrl(delivery.url)) this.wake();
    if (gone) {
      await this.notify(delivery, 'webhook_disabled', {
        title: 'Webhook disabled',
        body: `Webhook ${delivery.subscriptionId} was disabled: ${delivery.url} answered 410 Gone.`,
      });
    } else if (next.status === 'failed' && !delivery.manual) {
      await this.notify(delivery, 'webhook_failing', {
        title: 'Webhook failing',
        body: `Event ${delivery.eventId} could not be delivered to ${delivery.url} after ${delivery.attempts + 1} attempts: ${result.error}`,
      });
    } else if (next.nextAttemptAt) {
      this.wakeAt(Date.parse(next.nextAttemptAt) - clock.now());
    }
  }

  private nextState(delivery: ClaimedDelivery, succeeded: boolean, gone: boolean): FinishedAttempt['next'] {
    const { retries } = delivery;
    if (succeeded) return { status: 'succeeded', nextAttemptAt: null, retries };
    // A re-send of a finished delivery is one attempt; 410 ends every delivery of the subscription.
    if (gone || delivery.manual) return { status: 'failed', nextAttemptAt: null, retries };
    const delay = retryDelay(this.options.schedule, retries);
    if (delay === undefined) return { status: 'failed', nextAttemptAt: null, retries };
    return { status: 'pending', nextAttemptAt: iso(this.options.clock.now() + delay), retries: retries + 1 };
  }

  private wakeAt(delayMs: number): void {
    if (this.stopped || delayMs > TIMED_RETRY_MS) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.wake();
    }, Math.max(0, delayMs) + 1);
    timer.unref();
    this.timers.add(timer);
  }

  private async notify(
    delivery: ClaimedDelivery,
    kind: 'webhook_failing' | 'webhook_disabled',
    text: { title: string; body: string },
  ): Promise<void> {
    await this.options.notifier?.raise(delivery.ownerId, kind, {
      ...text,
      link: `/api/v1/data/webhooks/${delivery.subscriptionId}/deliveries/${delivery.id}/attempts`,
      data: {
        webhookId: delivery.subscriptionId,
        deliveryId: delivery.id,
        eventId: delivery.eventId,
        url: delivery.url,
        attempts: delivery.attempts + 1,
      },
    });
  }
}
