/** Counts metered on one cluster on one day, added to what is stored. */
export interface UsageIncrement {
  clusterId: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  requests: number;
  functionInvocations: number;
  webhookDeliveries: number;
}

/** A reading of what a cluster holds, replacing the day's earlier reading. */
export interface StorageReading {
  clusterId: string;
  day: string;
  documents: number;
  storageBytes: number;
}

/** One cluster's usage on one day, as stored. */
export interface UsageDayRow {
  day: string;
  clusterId: string;
  requests: number;
  documents: number;
  storageBytes: number;
  functionInvocations: number;
  webhookDeliveries: number;
}

/** An account whose trial end or notice a periodic task took. */
export interface TrialEvent {
  userId: string;
  trialExpiresAt: string;
}

/** A Stripe event as recorded once applied. */
export interface StripeEventRecord {
  id: string;
  type: string;
  receivedAt: string;
}

/**
 * What a verified Stripe event about a subscription does to the account its Stripe customer pays for. Only the
 * subscription the account has now counts: an event about an older one (replaced by a new Checkout) is ignored.
 */
export type SubscriptionChange =
  /** Checkout of a plan completed: the plan applies, paid by this subscription. */
  | { kind: 'subscribed'; userId: string; plan: string; subscriptionId: string | null; at: string }
  /** The subscription ended (cancelled, or unpaid after Stripe's retries): back to the free plan. */
  | { kind: 'ended'; customerId: string; subscriptionId: string; at: string }
  /**
   * A renewal could not be charged: `past_due` while Stripe retries; writes go on. `created` is the event's time
   * at Stripe (Unix seconds): Stripe does not deliver events in order, so an event older than the last payment
   * event applied changes nothing, and of two in the same second the payment wins.
   */
  | { kind: 'payment_failed'; customerId: string; subscriptionId: string; created: number }
  /** A renewal was paid (possibly after failures): `past_due` is over. */
  | { kind: 'paid'; customerId: string; subscriptionId: string; created: number };

/** The account after a subscription event, `ignored` when it is not about one of ours, `replayed` when seen before. */
export type SubscriptionOutcome = { userId: string; plan: string; status: string } | 'ignored' | 'replayed';

/** A plan the account chose, from `changedAt` on. */
export interface PlanChange {
  plan: string;
  changedAt: string;
}

/** What a payg charge did to the account. */
export interface ChargeOutcome {
  /** Cents taken from the credits by this charge (0 when nothing new was used). */
  charged: number;
  credits: number;
  status: string;
}

/**
 * The billing side of accounts beyond plan choice: trials, metered usage, payg charges, credits and Stripe's
 * events. Trial ends, charges and grants change what authentication decides (a key's tier, a suspension), so the
 * server sends them through the authentication cache (`cached-stores.ts`).
 */
export interface BillingStore {
  /** Adds counters of several clusters and days in one transaction (one batch of the usage meter). */
  addUsage(increments: readonly UsageIncrement[]): Promise<void>;
  /** Stores readings of what clusters hold; a later reading of the same day replaces an earlier one. */
  recordReadings(readings: readonly StorageReading[]): Promise<void>;
  /** Usage of the clusters `userId` created (the ones billed to them), from `from` to `to` days included. */
  usage(userId: string, from: string, to: string): Promise<UsageDayRow[]>;
  /** Ids of the clusters that are not deleted, for the storage readings. */
  liveClusterIds(): Promise<string[]>;
  /** Marks trials ended whose end is at or before `now` and not yet marked; returns those accounts. */
  endTrials(now: string): Promise<TrialEvent[]>;
  /** Marks the notice of trials ending before `before` (and not yet ended or noticed); returns those accounts. */
  takeTrialNotices(before: string, now: string): Promise<TrialEvent[]>;
  /** Users on the payg plan: the ones whose usage is charged to their credits. */
  paygUsers(): Promise<string[]>;
  /**
   * Sets what `month`'s metered use of `userId` costs in all (`cents`), taking from the credits only what was not
   * charged before, and suspends the account when the credits reach zero; one transaction.
   */
  charge(userId: string, month: string, cents: number): Promise<ChargeOutcome | null>;
  /**
   * Adds credits to the user (by id or e-mail) and lifts a suspension; null when there is no such user. With a
   * Stripe event, the event is recorded in the same transaction, and a replayed one grants nothing (`replayed`).
   */
  grantCredits(
    user: { userId: string } | { email: string },
    cents: number,
    stripeEvent?: StripeEventRecord,
  ): Promise<{ userId: string; credits: number } | 'replayed' | null>;
  /** Whether a Stripe event was recorded before: a replay. */
  stripeEventSeen(eventId: string): Promise<boolean>;
  /** Records a Stripe event; false when it was recorded before (a replay). */
  recordStripeEvent(event: StripeEventRecord): Promise<boolean>;
  /**
   * Records a Stripe event and applies what it does to a subscription in the same transaction; a replayed event
   * changes nothing. A plan change is kept in the plan history (`planChanges`).
   */
  applySubscriptionEvent(event: StripeEventRecord, change: SubscriptionChange): Promise<SubscriptionOutcome>;
  /** Every plan the user had, oldest first: the invoice of a past month bills the plans in force then. */
  planChanges(userId: string): Promise<PlanChange[]>;
  /** The Stripe subscription that pays for the user's plan now, or null. */
  stripeSubscription(userId: string): Promise<string | null>;
  /** The Stripe customer of the user, or null. */
  stripeCustomer(userId: string): Promise<string | null>;
  setStripeCustomer(userId: string, customerId: string): Promise<void>;
}
