import type { PriceTable } from '@dataplatform/contract';
import type Stripe from 'stripe';
import { missingPaymentSettings, type PaymentSettings } from '../billing-settings.js';
import { ApiError } from '../http/errors.js';
import { lazy } from '../lazy.js';
import type { StripeEventRecord, SubscriptionChange } from '../storage/billing.js';
import type { Storage } from '../storage/types.js';
import { activityEntry } from './activity.js';
import { subscriptionChangeOf } from './stripe-events.js';

/** The `stripe` package, loaded with the first payment call: servers without payments never load it. */
const stripeModule = lazy(() => import('stripe'));

/** How old a signed event may be, in seconds (Stripe's own default): an older one is refused as a replay. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Stripe, as the activity log shows who added credits it was paid for. */
const STRIPE_CLIENT = { ip: 'stripe', userAgent: null };

/** The activity entry of each subscription change, as the owner reads it. */
const SUBSCRIPTION_ACTIONS = {
  subscribed: 'billing.subscribed',
  ended: 'billing.subscription_ended',
  payment_failed: 'billing.payment_failed',
  paid: 'billing.payment_succeeded',
} as const satisfies Record<SubscriptionChange['kind'], string>;

/** What a Checkout sells, kept in the session's metadata so that the webhook knows what was paid for. */
interface CheckoutPurchase {
  plan?: string;
  credits?: number;
}

/**
 * Payments through Stripe: Checkout for plans and credit top-ups, the customer portal, and the webhook that
 * applies what was paid. Every call answers 404 naming the missing settings until the operator sets both
 * `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET`.
 */
export class StripePayments {
  private client: Stripe | undefined;

  constructor(
    private readonly settings: PaymentSettings,
    private readonly storage: Storage,
    private readonly prices: PriceTable,
    /** Where Stripe sends the user back to (the server's public address). */
    private readonly returnUrl: () => string,
  ) {}

  /** A Checkout page for a plan (a monthly subscription) or for credits (one payment). */
  async checkout(userId: string, purchase: CheckoutPurchase): Promise<{ url: string }> {
    const stripe = await this.stripe();
    const customer = await this.customerOf(userId);
    const back = `${this.returnUrl()}/account`;
    const metadata = {
      userId,
      ...(purchase.plan ? { plan: purchase.plan } : { credits: String(purchase.credits) }),
    };
    const session = await stripe.checkout.sessions.create({
      customer,
      client_reference_id: userId,
      metadata,
      success_url: `${back}?checkout=done`,
      cancel_url: `${back}?checkout=cancelled`,
      ...(purchase.plan
        ? {
            mode: 'subscription' as const,
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: 'usd',
                  unit_amount: this.prices.plans[purchase.plan] ?? 0,
                  recurring: { interval: 'month' as const },
                  product_data: { name: `dataplatform ${purchase.plan} plan` },
                },
              },
            ],
          }
        : {
            mode: 'payment' as const,
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: 'usd',
                  unit_amount: purchase.credits!,
                  product_data: { name: 'dataplatform credits' },
                },
              },
            ],
          }),
    });
    if (!session.url) throw new Error('Stripe answered a Checkout session without a URL');
    return { url: session.url };
  }

  /** The customer portal of the user's Stripe customer. */
  async portal(userId: string): Promise<{ url: string }> {
    const stripe = await this.stripe();
    const session = await stripe.billingPortal.sessions.create({
      customer: await this.customerOf(userId),
      return_url: `${this.returnUrl()}/account`,
    });
    return { url: session.url };
  }

  /**
   * Verifies an event against its `Stripe-Signature` and applies it once. A bad or stale signature is 400 and
   * changes nothing; an event seen before answers `applied: false`.
   */
  async receive(
    rawBody: string,
    signature: string | undefined,
  ): Promise<{ received: true; applied: boolean }> {
    const stripe = await this.stripe();
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(
        rawBody,
        signature ?? '',
        this.settings.webhookSecret!,
        SIGNATURE_TOLERANCE_SECONDS,
      );
    } catch (error) {
      throw new ApiError('validation_error', 'The Stripe-Signature does not match the body', {
        reason: (error as Error).message,
      });
    }
    const record = { id: event.id, type: event.type, receivedAt: new Date().toISOString() };
    if (event.type === 'checkout.session.completed') return this.completed(event, record);
    const change = subscriptionChangeOf(event, record.receivedAt);
    if (change === null) {
      // Recorded all the same, so that a replay of any event is recognised as one.
      await this.storage.billing.recordStripeEvent(record);
      return { received: true, applied: false };
    }
    return this.applySubscription(event, record, change);
  }

  /** A paid Checkout: the credits or the plan it sold. */
  private async completed(
    event: Stripe.CheckoutSessionCompletedEvent,
    record: StripeEventRecord,
  ): Promise<{ received: true; applied: boolean }> {
    const session = event.data.object;
    const userId = session.metadata?.userId ?? session.client_reference_id;
    if (!userId) {
      // A Checkout made elsewhere on the same Stripe account: nothing of ours to apply.
      await this.storage.billing.recordStripeEvent(record);
      return { received: true, applied: false };
    }
    if (session.metadata?.credits) {
      const cents = Number(session.metadata.credits);
      const granted = await this.storage.billing.grantCredits({ userId }, cents, record);
      if (granted === 'replayed' || granted === null) return { received: true, applied: false };
      await this.storage.sessions.addActivity(
        activityEntry(userId, 'billing.credits_added', STRIPE_CLIENT, { cents, eventId: event.id }),
      );
      return { received: true, applied: true };
    }
    const plan = session.metadata?.plan;
    if (!plan) {
      await this.storage.billing.recordStripeEvent(record);
      return { received: true, applied: false };
    }
    const subscriptionId =
      typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null);
    // The new plan's subscription replaces the old plan's: Stripe stops charging that one first, so that a failure
    // answers 500 and Stripe's redelivery tries again (its `customer.subscription.deleted` then changes nothing
    // here, as it is no longer the account's subscription). A replay cancels nothing.
    if (!(await this.storage.billing.stripeEventSeen(event.id))) {
      const replaced = await this.storage.billing.stripeSubscription(userId);
      if (replaced && replaced !== subscriptionId) await this.cancelSubscription(replaced);
    }
    const change = { kind: 'subscribed', userId, plan, subscriptionId, at: record.receivedAt } as const;
    return this.applySubscription(event, record, change);
  }

  /** Applies a subscription's start, end or payment once, and tells the owner in their activity log. */
  private async applySubscription(
    event: Stripe.Event,
    record: StripeEventRecord,
    change: SubscriptionChange,
  ): Promise<{ received: true; applied: boolean }> {
    const outcome = await this.storage.billing.applySubscriptionEvent(record, change);
    if (outcome === 'replayed' || outcome === 'ignored') return { received: true, applied: false };
    const { plan, status } = outcome;
    await this.storage.sessions.addActivity(
      activityEntry(outcome.userId, SUBSCRIPTION_ACTIONS[change.kind], STRIPE_CLIENT, {
        plan,
        status,
        eventId: event.id,
      }),
    );
    return { received: true, applied: true };
  }

  private async cancelSubscription(subscriptionId: string): Promise<void> {
    const stripe = await this.stripe();
    try {
      await stripe.subscriptions.cancel(subscriptionId, { prorate: true });
    } catch (error) {
      // Already gone (cancelled in the portal, say) is what was wanted.
      if ((error as { code?: string }).code !== 'resource_missing') throw error;
    }
  }

  /** The user's Stripe customer, made on first use and kept. */
  private async customerOf(userId: string): Promise<string> {
    const known = await this.storage.billing.stripeCustomer(userId);
    if (known) return known;
    const stripe = await this.stripe();
    const user = await this.storage.accounts.findUser(userId);
    const customer = await stripe.customers.create({
      ...(user ? { email: user.email, name: user.name } : {}),
      metadata: { userId },
    });
    await this.storage.billing.setStripeCustomer(userId, customer.id);
    return customer.id;
  }

  private async stripe(): Promise<Stripe> {
    const missing = missingPaymentSettings(this.settings);
    if (missing.length > 0)
      throw new ApiError('not_found', `Payments are not configured: set ${missing.join(' and ')}`, {
        missing,
      });
    if (!this.client) {
      const { default: StripeClient } = await stripeModule();
      this.client = new StripeClient(this.settings.secretKey!, {
        maxNetworkRetries: 2,
        ...apiAddress(this.settings.apiBase),
      });
    }
    return this.client;
  }
}

/** Stripe's client settings for another API address (stripe-mock in tests). */
function apiAddress(base: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!base) return {};
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}
