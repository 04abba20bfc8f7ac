import type Database from 'better-sqlite3';
import type {
  BillingStore,
  ChargeOutcome,
  StorageReading,
  StripeEventRecord,
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

  async stripeCustomer(userId: string): Promise<string | null> {
    return this.stmt.customer.get(userId)?.customer ?? null;
  }

  async setStripeCustomer(userId: string, customerId: string): Promise<void> {
    this.stmt.setCustomer.run(customerId, userId);
  }
}
