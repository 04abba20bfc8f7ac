import type { Sql, TransactionSql } from 'postgres';
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

/** Rows in one order on every instance, so that two batches upserting the same days never wait on each other in a cycle. */
function inKeyOrder<T extends { clusterId: string; day: string }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) =>
    a.clusterId === b.clusterId ? a.day.localeCompare(b.day) : a.clusterId.localeCompare(b.clusterId),
  );
}

/** Trials, metered usage, payg charges, credits and Stripe events on PostgreSQL. */
export class PostgresBilling implements BillingStore {
  constructor(private readonly sql: Sql) {}

  async addUsage(increments: readonly UsageIncrement[]): Promise<void> {
    if (increments.length === 0) return;
    const rows = inKeyOrder(increments);
    // One statement for the whole batch; ON CONFLICT adds to what other instances wrote.
    await this.sql`
      INSERT INTO billing_usage_days (cluster_id, day, requests, function_invocations, webhook_deliveries)
      SELECT * FROM unnest(
        ${this.sql.array(rows.map((r) => r.clusterId))}::text[], ${this.sql.array(rows.map((r) => r.day))}::text[],
        ${this.sql.array(rows.map((r) => r.requests))}::int8[], ${this.sql.array(rows.map((r) => r.functionInvocations))}::int8[],
        ${this.sql.array(rows.map((r) => r.webhookDeliveries))}::int8[])
      ON CONFLICT (cluster_id, day) DO UPDATE SET
        requests = billing_usage_days.requests + excluded.requests,
        function_invocations = billing_usage_days.function_invocations + excluded.function_invocations,
        webhook_deliveries = billing_usage_days.webhook_deliveries + excluded.webhook_deliveries`;
  }

  async recordReadings(readings: readonly StorageReading[]): Promise<void> {
    if (readings.length === 0) return;
    const rows = inKeyOrder(readings);
    await this.sql`
      INSERT INTO billing_usage_days (cluster_id, day, documents, storage_bytes)
      SELECT * FROM unnest(
        ${this.sql.array(rows.map((r) => r.clusterId))}::text[], ${this.sql.array(rows.map((r) => r.day))}::text[],
        ${this.sql.array(rows.map((r) => r.documents))}::int8[], ${this.sql.array(rows.map((r) => r.storageBytes))}::int8[])
      ON CONFLICT (cluster_id, day) DO UPDATE SET
        documents = excluded.documents, storage_bytes = excluded.storage_bytes`;
  }

  async usage(userId: string, from: string, to: string): Promise<UsageDayRow[]> {
    return this.sql<UsageDayRow[]>`
      SELECT u.day, u.cluster_id AS "clusterId", u.requests::float8 AS requests, u.documents::float8 AS documents,
             u.storage_bytes::float8 AS "storageBytes", u.function_invocations::float8 AS "functionInvocations",
             u.webhook_deliveries::float8 AS "webhookDeliveries"
      FROM billing_usage_days u JOIN clusters c ON c.id = u.cluster_id
      WHERE c.owner_id = ${userId} AND u.day >= ${from} AND u.day <= ${to}
      ORDER BY u.day, c.created_at, c.id`;
  }

  async liveClusterIds(): Promise<string[]> {
    const rows = await this.sql<{ id: string }[]>`
      SELECT id FROM clusters WHERE status NOT IN ('deleting', 'deleted') ORDER BY id`;
    return rows.map((row) => row.id);
  }

  async endTrials(now: string): Promise<TrialEvent[]> {
    return this.sql<TrialEvent[]>`
      UPDATE billing_accounts SET trial_ended_at = ${now}
      WHERE trial_ended_at IS NULL AND trial_expires_at IS NOT NULL AND trial_expires_at <= ${now}
      RETURNING user_id AS "userId", trial_expires_at AS "trialExpiresAt"`;
  }

  async takeTrialNotices(before: string, now: string): Promise<TrialEvent[]> {
    return this.sql<TrialEvent[]>`
      UPDATE billing_accounts SET trial_notified_at = ${now}
      WHERE trial_notified_at IS NULL AND trial_ended_at IS NULL AND trial_expires_at IS NOT NULL
        AND trial_expires_at > ${now} AND trial_expires_at <= ${before}
      RETURNING user_id AS "userId", trial_expires_at AS "trialExpiresAt"`;
  }

  async paygUsers(): Promise<string[]> {
    const rows = await this.sql<{ userId: string }[]>`
      SELECT user_id AS "userId" FROM billing_accounts WHERE plan = 'payg' ORDER BY user_id`;
    return rows.map((row) => row.userId);
  }

  async charge(userId: string, month: string, cents: number): Promise<ChargeOutcome | null> {
    return this.sql.begin(async (tx) => {
      // The account's row is locked first, so two charges of one account take turns.
      const [account] = await tx<{ credits: number }[]>`
        SELECT credits::float8 AS credits FROM billing_accounts WHERE user_id = ${userId} FOR UPDATE`;
      if (!account) return null;
      const [row] = await tx<{ cents: number }[]>`
        SELECT cents::float8 AS cents FROM billing_charges WHERE user_id = ${userId} AND month = ${month}`;
      const before = row?.cents ?? 0;
      // Usage only grows, so the cost does too; a smaller figure (a changed price table) takes nothing back.
      const charged = Math.max(0, cents - before);
      await tx`
        INSERT INTO billing_charges (user_id, month, cents) VALUES (${userId}, ${month}, ${Math.max(cents, before)})
        ON CONFLICT (user_id, month) DO UPDATE SET cents = excluded.cents`;
      const [after] = await tx<{ credits: number; status: string }[]>`
        UPDATE billing_accounts SET credits = credits - ${charged},
          status = CASE WHEN credits - ${charged} <= 0 AND status = 'active' THEN 'suspended' ELSE status END
        WHERE user_id = ${userId} RETURNING credits::float8 AS credits, status`;
      return { charged, ...after! };
    });
  }

  async grantCredits(
    user: { userId: string } | { email: string },
    cents: number,
    stripeEvent?: StripeEventRecord,
  ): Promise<{ userId: string; credits: number } | 'replayed' | null> {
    return this.sql.begin(async (tx) => {
      let userId: string | undefined;
      if ('userId' in user) userId = user.userId;
      else {
        const [found] = await tx<{ id: string }[]>`SELECT id FROM users WHERE email = ${user.email}`;
        userId = found?.id;
      }
      if (userId === undefined) return null;
      if (stripeEvent) {
        const recorded = await tx`
          INSERT INTO billing_stripe_events (id, type, received_at)
          VALUES (${stripeEvent.id}, ${stripeEvent.type}, ${stripeEvent.receivedAt}) ON CONFLICT DO NOTHING`;
        if (recorded.count === 0) return 'replayed' as const;
      }
      const [row] = await tx<{ credits: number }[]>`
        UPDATE billing_accounts SET credits = credits + ${cents},
          status = CASE WHEN status = 'suspended' AND credits + ${cents} > 0 THEN 'active' ELSE status END
        WHERE user_id = ${userId} RETURNING credits::float8 AS credits`;
      return row ? { userId, credits: row.credits } : null;
    });
  }

  async recordStripeEvent(event: StripeEventRecord): Promise<boolean> {
    const recorded = await this.sql`
      INSERT INTO billing_stripe_events (id, type, received_at)
      VALUES (${event.id}, ${event.type}, ${event.receivedAt}) ON CONFLICT DO NOTHING`;
    return recorded.count === 1;
  }

  async applySubscriptionEvent(
    event: StripeEventRecord,
    change: SubscriptionChange,
  ): Promise<SubscriptionOutcome> {
    return this.sql.begin(async (tx): Promise<SubscriptionOutcome> => {
      const recorded = await tx`
        INSERT INTO billing_stripe_events (id, type, received_at)
        VALUES (${event.id}, ${event.type}, ${event.receivedAt}) ON CONFLICT DO NOTHING`;
      if (recorded.count === 0) return 'replayed';
      if (change.kind === 'subscribed') {
        // A paid plan ends a suspension and a payment failure: the Checkout was just paid.
        const [account] = await tx<AccountState[]>`
          UPDATE billing_accounts SET plan = ${change.plan}, stripe_subscription_id = ${change.subscriptionId},
            status = CASE WHEN ${change.plan} <> 'payg' AND status IN ('suspended', 'past_due') THEN 'active'
              ELSE status END
          WHERE user_id = ${change.userId} RETURNING user_id AS "userId", plan, status`;
        if (account) await recordPlan(tx, account, change.at);
        return account ?? 'ignored';
      }
      // Only the subscription the account pays with now counts: an older one's end or invoices change nothing.
      const [current] = await tx<{ userId: string; subscriptionId: string | null }[]>`
        SELECT user_id AS "userId", stripe_subscription_id AS "subscriptionId"
        FROM billing_accounts WHERE stripe_customer_id = ${change.customerId} FOR UPDATE`;
      if (!current || current.subscriptionId !== change.subscriptionId) return 'ignored';
      if (change.kind === 'ended') {
        // Nothing is owed on the free plan: a failed payment or a payg suspension is over with it.
        const [account] = await tx<AccountState[]>`
          UPDATE billing_accounts SET plan = 'free', stripe_subscription_id = NULL,
            status = CASE WHEN status IN ('suspended', 'past_due') THEN 'active' ELSE status END
          WHERE user_id = ${current.userId} RETURNING user_id AS "userId", plan, status`;
        await recordPlan(tx, account!, change.at);
        return account!;
      }
      // past_due only replaces active (a payg suspension stays), and only past_due is lifted by a payment. An
      // event older than the last one applied finds no row (SubscriptionChange says why).
      const status = change.kind === 'payment_failed' ? 'past_due' : 'active';
      const [account] = await tx<AccountState[]>`
        UPDATE billing_accounts SET stripe_payment_event_at = ${change.created}, status = CASE
          WHEN ${status} = 'past_due' AND status = 'active' THEN 'past_due'
          WHEN ${status} = 'active' AND status = 'past_due' THEN 'active'
          ELSE status END
        WHERE user_id = ${current.userId} AND (stripe_payment_event_at IS NULL
          OR stripe_payment_event_at < ${change.created}
          OR (stripe_payment_event_at = ${change.created} AND ${status} = 'active'))
        RETURNING user_id AS "userId", plan, status`;
      return account ?? 'ignored';
    });
  }

  async planChanges(userId: string): Promise<PlanChange[]> {
    return this.sql<PlanChange[]>`
      SELECT plan, changed_at AS "changedAt" FROM billing_plan_changes WHERE user_id = ${userId}
      ORDER BY changed_at, id`;
  }

  async stripeEventSeen(eventId: string): Promise<boolean> {
    const rows = await this.sql`SELECT id FROM billing_stripe_events WHERE id = ${eventId}`;
    return rows.length > 0;
  }

  async stripeSubscription(userId: string): Promise<string | null> {
    const [row] = await this.sql<{ subscriptionId: string | null }[]>`
      SELECT stripe_subscription_id AS "subscriptionId" FROM billing_accounts WHERE user_id = ${userId}`;
    return row?.subscriptionId ?? null;
  }

  async stripeCustomer(userId: string): Promise<string | null> {
    const [row] = await this.sql<{ customer: string | null }[]>`
      SELECT stripe_customer_id AS customer FROM billing_accounts WHERE user_id = ${userId}`;
    return row?.customer ?? null;
  }

  async setStripeCustomer(userId: string, customerId: string): Promise<void> {
    await this.sql`UPDATE billing_accounts SET stripe_customer_id = ${customerId} WHERE user_id = ${userId}`;
  }
}

type AccountState = { userId: string; plan: string; status: string };

function recordPlan(tx: TransactionSql, account: AccountState, changedAt: string) {
  return tx`INSERT INTO billing_plan_changes (user_id, plan, changed_at)
            VALUES (${account.userId}, ${account.plan}, ${changedAt})`;
}
