import { performance } from 'node:perf_hooks';
import type { Sql } from 'postgres';

/** How long an instance trusts what it last read about a cluster's subscriptions. */
export const PRESENCE_LEASE_MS = 500;
/** Slack on top of a recorded lease (timer and scheduling delays, clock rates). */
export const PRESENCE_MARGIN_MS = 50;

interface Entry {
  /** performance.now() just before the query that read `present` was sent. */
  checkedAt: number;
  present: boolean;
  refreshing?: Promise<boolean>;
}

/**
 * Whether a cluster has active subscriptions, so that writes of clusters without any skip the outbox entirely
 * (the single-statement write stays one round trip). An answer is trusted for the lease from the moment its query
 * was sent, and writes under load refresh it in the background, so they rarely wait for it.
 *
 * Other instances create subscriptions too. The guarantee: a write that starts after a create was acknowledged,
 * on any instance, captures the create's events.
 * - A "present" answer is always safe: the write then reads the real subscription list inside its transaction
 *   (outbox.ts), in a statement sent after the write started, whose snapshot (READ COMMITTED) has every create
 *   acknowledged before.
 * - An "absent" answer is the danger, so it is recorded: `webhook_presence(cluster, lease)` (a plpgsql function,
 *   one round trip) first asks whether an active subscription exists; when none does, it upserts the cluster's
 *   row of `webhook_presence_leases` to at least now + lease + margin, which takes the row's lock, and then asks
 *   again in a new statement, with a new snapshot. A create (webhooks.ts) takes the same row's lock, by an upsert
 *   in the statement that inserts the subscription, holds it until that commits, and waits until the
 *   `absent_until` it read before it is acknowledged (usually no wait: that time has passed). For any recorded
 *   read R and create C, one of the two got the lock first:
 *   - C first: R's upsert waits until C commits, so R's second question sees C's subscription: "present".
 *   - R first: C's upsert waits until R's transaction commits, then reads R's lease (or a later one: the value
 *     only grows), so C is acknowledged only after the instance that read "absent" stopped trusting it, since
 *     its trust started before its query was sent and the recorded lease started after.
 *   Durations are compared on one clock, the database's (clock_timestamp()), so instances' clocks may differ.
 * Deletions need nothing: a stale "present" only costs a read of the list.
 */
export class SubscriptionPresence {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly sql: Sql,
    private readonly leaseMs = PRESENCE_LEASE_MS,
  ) {}

  /** True when writes of the cluster must capture events; a value when the answer is fresh, else a promise. */
  present(clusterId: string): boolean | Promise<boolean> {
    const entry = this.entries.get(clusterId);
    const age = entry ? performance.now() - entry.checkedAt : Number.POSITIVE_INFINITY;
    if (entry && age < this.leaseMs) {
      if (age > this.leaseMs / 2 && !entry.refreshing) this.refresh(clusterId).catch(() => {});
      return entry.present;
    }
    return entry?.refreshing ?? this.refresh(clusterId);
  }

  /** Records a subscription this instance just created: its own writes capture at once. */
  markPresent(clusterId: string): void {
    this.entries.set(clusterId, { checkedAt: performance.now(), present: true });
  }

  /** Forgets what is known of a cluster (a subscription was removed or turned off): the next write reads again. */
  forget(clusterId: string): void {
    this.entries.delete(clusterId);
  }

  private refresh(clusterId: string): Promise<boolean> {
    const checkedAt = performance.now();
    const previous = this.entries.get(clusterId);
    const refreshing = this.sql<{ present: boolean }[]>`
      SELECT webhook_presence(${clusterId}, ${this.leaseMs + PRESENCE_MARGIN_MS}) AS present`
      .execute()
      .then(([row]) => {
        const present = row!.present;
        // A newer answer (say, this instance just created a subscription) is not replaced by an older one.
        const current = this.entries.get(clusterId);
        if (!current || current.checkedAt <= checkedAt) this.entries.set(clusterId, { checkedAt, present });
        return present;
      });
    refreshing.catch(() => {
      const entry = this.entries.get(clusterId);
      if (entry?.refreshing === refreshing) delete entry.refreshing;
    });
    if (previous) previous.refreshing = refreshing;
    else {
      // Entries of idle clusters are dropped past a bound; they are read again on their next write.
      if (this.entries.size >= 10_000) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(clusterId, { checkedAt: Number.NEGATIVE_INFINITY, present: true, refreshing });
    }
    return refreshing;
  }
}
