import type Database from 'better-sqlite3';
import type {
  BillingStore,
  ChargeOutcome,
  PlanChange,
  StorageReading,
  StripeEventRecord,
  SubscriptionChange,
  SubscriptionOutcome,
  TrialEvent,
  UsageDayRow,
  UsageIncrement,
} from '../billing.js';

/** Trials, metered usage, payg charges, credits and Stripe events on SQLite. */
export class SqliteBilling implements BillingStore {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      addUsage: db.prepare(
        `INSERT INTO billing_usage_days (cluster_id, day, requests, function_invocations, webhook_deliveries)
         VALUES (@clusterId, @day, @requests, @functionInvocations, @webhookDeliveries)
         ON CONFLICT (cluster_id, day) DO UPDATE SET
           requests = requests + excluded.requests,
           function_invocations = function_invocations + excluded.function_invocations,
           webhook_deliveries = webhook_deliveries + excluded.webhook_deliveries`,
      ),
      reading: db.prepare(
        `INSERT INTO billing_usage_days (cluster_id, day, documents, storage_bytes)
         VALUES (@clusterId, @day, @documents, @storageBytes)
         ON CONFLICT (cluster_id, day) DO UPDATE SET
           documents = excluded.documents, storage_bytes = excluded.storage_bytes`,
      ),
      usage: db.prepare<[string, string, string], UsageDayRow>(
        `SELECT u.day, u.cluster_id AS clusterId, u.requests, u.documents, u.storage_bytes AS storageBytes,
                u.function_invocations AS functionInvocations, u.webhook_deliveries AS webhookDeliveries
         FROM billing_usage_days u JOIN clusters c ON c.id = u.cluster_id
         WHERE c.owner_id = ? AND u.day >= ? AND u.day <= ?
         ORDER BY u.day, c.created_at, c.id`,
      ),
      liveClusters: db.prepare<[], { id: string }>(
        "SELECT id FROM clusters WHERE status NOT IN ('deleting', 'deleted') ORDER BY id",
      ),
      endTrials: db.prepare<[string, string], TrialEvent>(
        `UPDATE billing_accounts SET trial_ended_at = ?
         WHERE trial_ended_at IS NULL AND trial_expires_at IS NOT NULL AND trial_expires_at <= ?
         RETURNING user_id AS userId, trial_expires_at AS trialExpiresAt`,
      ),
      trialNotices: db.prepare<[string, string, string], TrialEvent>(
        `UPDATE billing_accounts SET trial_notified_at = ?
         WHERE trial_notified_at IS NULL AND trial_ended_at IS NULL AND trial_expires_at IS NOT NULL
           AND trial_expires_at > ? AND trial_expires_at <= ?
         RETURNING user_id AS userId, trial_expires_at AS trialExpiresAt`,
      ),
      paygUsers: db.prepare<[], { userId: string }>(
        "SELECT user_id AS userId FROM billing_accounts WHERE plan = 'payg' ORDER BY user_id",
      ),
      charged: db.prepare<[string, string], { cents: number }>(
        'SELECT cents FROM billing_charges WHERE user_id = ? AND month = ?',
      ),
      setCharged: db.prepare(
        `INSERT INTO billing_charges (user_id, month, cents) VALUES (?, ?, ?)
         ON CONFLICT (user_id, month) DO UPDATE SET cents = excluded.cents`,
      ),
      takeCredits: db.prepare<[{ cents: number; userId: string }], { credits: number; status: string }>(
        `UPDATE billing_accounts SET credits = credits - @cents,
           status = CASE WHEN credits - @cents <= 0 AND status = 'active' THEN 'suspended' ELSE status END
         WHERE user_id = @userId RETURNING credits, status`,
      ),
      userByEmail: db.prepare<[string], { id: string }>('SELECT id FROM users WHERE email = ?'),
      addCredits: db.prepare<[{ cents: number; userId: string }], { credits: number }>(
        `UPDATE billing_accounts SET credits = credits + @cents,
           status = CASE WHEN status = 'suspended' AND credits + @cents > 0 THEN 'active' ELSE status END
         WHERE user_id = @userId RETURNING credits`,
      ),
      recordEvent: db.prepare(
        'INSERT INTO billing_stripe_events (id, type, received_at) VALUES (@id, @type, @receivedAt) ON CONFLICT DO NOTHING',
      ),
      customer: db.prepare<[string], { customer: string | null }>(
        'SELECT stripe_customer_id AS customer FROM billing_accounts WHERE user_id = ?',
      ),
      setCustomer: db.prepare('UPDATE billing_accounts SET stripe_customer_id = ? WHERE user_id = ?'),
      ...subscriptionStatements(db),
    };
  }

  async addUsage(increments: readonly UsageIncrement[]): Promise<void> {
    this.db
      .transaction(() => {
        for (const increment of increments) this.stmt.addUsage.run(increment);
      })
      .immediate();
  }

  async recordReadings(readings: readonly StorageReading[]): Promise<void> {
    this.db
      .transaction(() => {
        for (const reading of readings) this.stmt.reading.run(reading);
      })
      .immediate();
  }

  async usage(userId: string, from: string, to: string): Promise<UsageDayRow[]> {
    return this.stmt.usage.all(userId, from, to);
  }

  async liveClusterIds(): Promise<string[]> {
    return this.stmt.liveClusters.all().map((row) => row.id);
  }

  async endTrials(now: string): Promise<TrialEvent[]> {
    return this.stmt.endTrials.all(now, now);
  }

  async takeTrialNotices(before: string, now: string): Promise<TrialEvent[]> {
    return this.stmt.trialNotices.all(now, now, before);
  }

  async paygUsers(): Promise<string[]> {
    return this.stmt.paygUsers.all().map((row) => row.userId);
  }

  async charge(userId: string, month: string, cents: number): Promise<ChargeOutcome | null> {
    return this.db
      .transaction((): ChargeOutcome | null => {
        const before = this.stmt.charged.get(userId, month)?.cents ?? 0;
        // Usage only grows, so the cost does too; a smaller figure (a changed price table) takes nothing back.
        const charged = Math.max(0, cents - before);
        this.stmt.setCharged.run(userId, month, Math.max(cents, before));
        const account = this.stmt.takeCredits.get({ cents: charged, userId });
        return account ? { charged, ...account } : null;
      })
      .immediate();
  }

  async grantCredits(
    user: { userId: string } | { email: string },
    cents: number,
    stripeEvent?: StripeEventRecord,
  ): Promise<{ userId: string; credits: number } | 'replayed' | null> {
    return this.db
      .transaction(() => {
        const userId = 'userId' in user ? user.userId : this.stmt.userByEmail.get(user.email)?.id;
        if (userId === undefined) return null;
        if (stripeEvent && this.stmt.recordEvent.run(stripeEvent).changes === 0) return 'replayed' as const;
        const row = this.stmt.addCredits.get({ cents, userId });
        return row ? { userId, credits: row.credits } : null;
      })
      .immediate();
  }

  async recordStripeEvent(event: StripeEventRecord): Promise<boolean> {
    return this.stmt.recordEvent.run(event).changes === 1;
  }

  async applySubscriptionEvent(
    event: StripeEventRecord,
    change: SubscriptionChange,
  ): Promise<SubscriptionOutcome> {
    return this.db
      .transaction((): SubscriptionOutcome => {
        if (this.stmt.recordEvent.run(event).changes === 0) return 'replayed';
        if (change.kind === 'subscribed') {
          const account = this.stmt.subscribe.get(change);
          if (account) this.stmt.planChange.run({ ...account, changedAt: change.at });
          return account ?? 'ignored';
        }
        // Only the subscription the account pays with now counts: an older one's end or invoices change nothing.
        const current = this.stmt.byCustomer.get(change.customerId);
        if (!current || current.subscriptionId !== change.subscriptionId) return 'ignored';
        if (change.kind === 'ended') {
          const account = this.stmt.endSubscription.get(current.userId)!;
          this.stmt.planChange.run({ ...account, changedAt: change.at });
          return account;
        }
        const status = change.kind === 'payment_failed' ? 'past_due' : 'active';
        return (
          this.stmt.paymentStatus.get({ userId: current.userId, status, created: change.created }) ??
          'ignored'
        );
      })
      .immediate();
  }

  async planChanges(userId: string): Promise<PlanChange[]> {
    return this.stmt.planChanges.all(userId);
  }

  async stripeEventSeen(eventId: string): Promise<boolean> {
    return this.stmt.eventSeen.get(eventId) !== undefined;
  }

  async stripeSubscription(userId: string): Promise<string | null> {
    return this.stmt.subscriptionOf.get(userId)?.subscriptionId ?? null;
  }

  async stripeCustomer(userId: string): Promise<string | null> {
    return this.stmt.customer.get(userId)?.customer ?? null;
  }

  async setStripeCustomer(userId: string, customerId: string): Promise<void> {
    this.stmt.setCustomer.run(customerId, userId);
  }
}

type AccountState = { userId: string; plan: string; status: string };

/** The statements of subscription events and plan history. */
function subscriptionStatements(db: Database.Database) {
  return {
    // A paid plan ends a suspension and a payment failure: the Checkout was just paid.
    subscribe: db.prepare<[{ userId: string; plan: string; subscriptionId: string | null }], AccountState>(
      `UPDATE billing_accounts SET plan = @plan, stripe_subscription_id = @subscriptionId,
         status = CASE WHEN @plan <> 'payg' AND status IN ('suspended', 'past_due') THEN 'active' ELSE status END
       WHERE user_id = @userId RETURNING user_id AS userId, plan, status`,
    ),
    eventSeen: db.prepare<[string], { id: string }>('SELECT id FROM billing_stripe_events WHERE id = ?'),
    subscriptionOf: db.prepare<[string], { subscriptionId: string | null }>(
      'SELECT stripe_subscription_id AS subscriptionId FROM billing_accounts WHERE user_id = ?',
    ),
    byCustomer: db.prepare<[string], { userId: string; subscriptionId: string | null }>(
      `SELECT user_id AS userId, stripe_subscription_id AS subscriptionId
       FROM billing_accounts WHERE stripe_customer_id = ?`,
    ),
    // Nothing is owed on the free plan: a failed payment or a payg suspension is over with it.
    endSubscription: db.prepare<[string], AccountState>(
      `UPDATE billing_accounts SET plan = 'free', stripe_subscription_id = NULL,
         status = CASE WHEN status IN ('suspended', 'past_due') THEN 'active' ELSE status END
       WHERE user_id = ? RETURNING user_id AS userId, plan, status`,
    ),
    // past_due only replaces active (a payg suspension stays), and only past_due is lifted by a payment. An event
    // older than the last one applied finds no row (SubscriptionChange says why).
    paymentStatus: db.prepare<[{ userId: string; status: string; created: number }], AccountState>(
      `UPDATE billing_accounts SET stripe_payment_event_at = @created, status = CASE
         WHEN @status = 'past_due' AND status = 'active' THEN 'past_due'
         WHEN @status = 'active' AND status = 'past_due' THEN 'active'
         ELSE status END
       WHERE user_id = @userId AND (stripe_payment_event_at IS NULL OR stripe_payment_event_at < @created
         OR (stripe_payment_event_at = @created AND @status = 'active'))
       RETURNING user_id AS userId, plan, status`,
    ),
    planChange: db.prepare(
      'INSERT INTO billing_plan_changes (user_id, plan, changed_at) VALUES (@userId, @plan, @changedAt)',
    ),
    planChanges: db.prepare<[string], PlanChange>(
      `SELECT plan, changed_at AS changedAt FROM billing_plan_changes WHERE user_id = ?
       ORDER BY changed_at, id`,
    ),
  };
}
