import { performance } from 'node:perf_hooks';
import type { Sql } from 'postgres';

/** How long an instance trusts what it last read about a cluster's subscriptions. */
export const PRESENCE_LEASE_MS = 500;
/** Slack on top of the lease before a new subscription is acknowledged (timer and scheduling delays). */
export const PRESENCE_MARGIN_MS = 50;

interface Entry {
  /** performance.now() just before the query that read `present` was sent. */
  checkedAt: number;
  present: boolean;
  refreshing?: Promise<boolean>;
}

/**
 * Whether a cluster has active subscriptions, so that writes of clusters without any skip the outbox entirely
 * (the single-statement write stays one round trip). Other instances create subscriptions too, so an answer
 * is trusted for PRESENCE_LEASE_MS from the moment its query was sent, and creating a subscription waits that
 * long (plus a margin) after its commit before it is acknowledged: a write that starts after the
 * acknowledgement, on any instance, either uses an answer read after the commit, which saw the subscription,
 * or reads again. Writes under load refresh the answer in the background, so they rarely wait for it.
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

  /** How long a new subscription waits after its commit before it is acknowledged. */
  get acknowledgementDelayMs(): number {
    return this.leaseMs + PRESENCE_MARGIN_MS;
  }

  private refresh(clusterId: string): Promise<boolean> {
    const checkedAt = performance.now();
    const previous = this.entries.get(clusterId);
    const refreshing = this.sql<{ present: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM webhook_subscriptions WHERE cluster_id = ${clusterId} AND active) AS present`
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
