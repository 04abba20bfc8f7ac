import type { FastifyBaseLogger } from 'fastify';
import type { BillingStore, UsageIncrement } from '../storage/billing.js';
import { type Clock, systemClock } from '../webhooks/clock.js';

/** What the meter counts per cluster per day. */
export type MeteredCounter = 'requests' | 'functionInvocations' | 'webhookDeliveries';

/** How often the meter writes. */
export interface UsageMeterOptions {
  /** Longest time a count waits in memory, in milliseconds (default 1000). */
  flushIntervalMs?: number;
  clock?: Clock;
}

/**
 * Counts billable use per cluster per day in memory and adds it to storage in batches, off the request's path: a
 * request only bumps a counter of a map keyed by cluster and day. Every instance adds its own counts to the same
 * rows (an upsert that adds), so the totals are exact across instances. `close()` writes what is left; a crash
 * loses at most one interval, and a failed write puts its counts back for the next one.
 */
export class UsageMeter {
  private pending = new Map<string, UsageIncrement>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly flushIntervalMs: number;
  private readonly clock: Clock;
  // The day's key is computed once per day change, not per request.
  private dayStartsAt = 0;
  private dayEndsAt = 0;
  private day = '';

  constructor(
    private readonly store: BillingStore,
    private readonly log: FastifyBaseLogger,
    options: UsageMeterOptions = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? 1000;
    this.clock = options.clock ?? systemClock;
  }

  /** Counts `n` of `counter` for the cluster today. */
  count(clusterId: string, counter: MeteredCounter, n = 1): void {
    const day = this.today();
    const key = `${clusterId}\u0000${day}`;
    let entry = this.pending.get(key);
    if (entry === undefined) {
      entry = { clusterId, day, requests: 0, functionInvocations: 0, webhookDeliveries: 0 };
      this.pending.set(key, entry);
    }
    entry[counter] += n;
    if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /**
   * Counts one invocation of a function of the cluster, whatever its trigger or outcome. The entry point of the
   * functions area (`app.billing.meter?.recordFunctionInvocation`), which calls it once per invocation it runs.
   */
  recordFunctionInvocation(clusterId: string): void {
    this.count(clusterId, 'functionInvocations');
  }

  /** Writes everything counted so far; resolves when it (and every earlier write) is done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.writing;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.writing = this.writing.then(() =>
      this.store.addUsage(batch).catch((error: unknown) => {
        this.log.error({ err: error }, 'usage metering write failed; its counts wait for the next one');
        for (const entry of batch) this.putBack(entry);
      }),
    );
    return this.writing;
  }

  /** Writes what is left; the meter is not used after. */
  async close(): Promise<void> {
    await this.flush();
  }

  private putBack(entry: UsageIncrement): void {
    const key = `${entry.clusterId}\u0000${entry.day}`;
    const current = this.pending.get(key);
    if (current === undefined) {
      this.pending.set(key, entry);
      return;
    }
    current.requests += entry.requests;
    current.functionInvocations += entry.functionInvocations;
    current.webhookDeliveries += entry.webhookDeliveries;
  }

  private today(): string {
    const now = this.clock.now();
    if (now < this.dayStartsAt || now >= this.dayEndsAt) {
      this.dayStartsAt = now - (now % 86_400_000);
      this.dayEndsAt = this.dayStartsAt + 86_400_000;
      this.day = new Date(this.dayStartsAt).toISOString().slice(0, 10);
    }
    return this.day;
  }
}
