import { BillingAccount, InvoiceList, RedirectUrl, StripeWebhookReceipt } from '@dataplatform/contract';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  availableEngines,
  bearer,
  type SignedUp,
  signUp,
  startTestServer,
  type TestServer,
} from './helpers.js';
import { expectError } from './key-helpers.js';

const stripeMockUrl = inject('stripeMockUrl');
const WEBHOOK_SECRET = 'whsec_test_secret';

/** Signs a payload as Stripe does; `timestamp` in seconds, now by default. */
function signed(payload: string, timestamp?: number): string {
  // Only the signing helpers are used: no request leaves this client.
  const stripe = new Stripe('sk_test_unused');
  return stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp });
}

let events = 0;

/** An event as Stripe sends it, with a fresh id. */
function stripeEvent(type: string, object: Record<string, unknown>, created = nowSeconds()): string {
  return JSON.stringify({
    id: `evt_test_${process.pid}_${++events}`,
    object: 'event',
    type,
    created,
    data: { object },
  });
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** A `checkout.session.completed` event; `more` adds the session's customer and subscription. */
function completed(metadata: Record<string, string>, more: Record<string, unknown> = {}): string {
  return stripeEvent('checkout.session.completed', {
    id: `cs_test_${events}`,
    object: 'checkout.session',
    metadata,
    ...more,
  });
}

/** A subscription's invoice event: the subscription named where the current API puts it, or at the top level. */
function invoiceEvent(
  type: string,
  customer: string,
  subscription: string,
  legacy = false,
  created = nowSeconds(),
): string {
  const names = legacy
    ? { subscription }
    : { parent: { type: 'subscription_details', subscription_details: { subscription } } };
  return stripeEvent(type, { id: `in_test_${events}`, object: 'invoice', customer, ...names }, created);
}

function subscriptionDeleted(customer: string, subscription: string): string {
  return stripeEvent('customer.subscription.deleted', {
    id: subscription,
    object: 'subscription',
    customer,
    status: 'canceled',
  });
}

describe.skipIf(!stripeMockUrl).each(availableEngines())(
  'payments through Stripe (stripe-mock) on %s',
  (engine) => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({
        engine,
        config: {
          payments: { secretKey: 'sk_test_123', webhookSecret: WEBHOOK_SECRET, apiBase: stripeMockUrl! },
        },
      });
    }, 60_000);
    afterAll(() => t?.stop(), 30_000);

    const as = (who: SignedUp, method: string, path: string, body?: unknown) =>
      t.call(method, path, { key: null, headers: bearer(who.token), body });
    const creditsOf = async (who: SignedUp) =>
      BillingAccount.parse(await (await as(who, 'GET', '/api/billing')).json()).credits;
    const deliver = (payload: string, signature?: string) =>
      t.call('POST', '/api/billing/stripe/webhook', {
        key: null,
        body: payload,
        headers: signature === undefined ? {} : { 'stripe-signature': signature },
      });

    it('opens Checkout for credits and for a plan, and the portal', async () => {
      const who = await signUp(t);
      for (const body of [{ credits: 500 }, { plan: 'team' }]) {
        const res = await as(who, 'POST', '/api/billing/checkout', body);
        expect(res.status, await res.clone().text()).toBe(200);
        expect(RedirectUrl.parse(await res.json()).url).toMatch(/^https:\/\//);
      }
      const portal = await as(who, 'POST', '/api/billing/portal');
      expect(portal.status, await portal.clone().text()).toBe(200);
      expect(RedirectUrl.parse(await portal.json()).url).toMatch(/^https:\/\//);
    });

    it('grants paid credits once: a replayed event changes nothing', async () => {
      const who = await signUp(t);
      const payload = completed({ userId: who.user._id, credits: '1500' });
      const first = await deliver(payload, signed(payload));
      expect(first.status, await first.clone().text()).toBe(200);
      expect(StripeWebhookReceipt.parse(await first.json())).toEqual({ received: true, applied: true });
      expect(await creditsOf(who)).toBe(1500);
      const replay = await deliver(payload, signed(payload));
      expect(StripeWebhookReceipt.parse(await replay.json())).toEqual({ received: true, applied: false });
      expect(await creditsOf(who)).toBe(1500);
    });

    it('applies a paid plan', async () => {
      const who = await signUp(t);
      const payload = completed({ userId: who.user._id, plan: 'team' });
      expect((await deliver(payload, signed(payload))).status).toBe(200);
      const account = BillingAccount.parse(await (await as(who, 'GET', '/api/billing')).json());
      expect(account).toMatchObject({ plan: 'team', tier: 'pro' });
    });

    describe('a subscription', () => {
      const accountOf = async (who: SignedUp) =>
        BillingAccount.parse(await (await as(who, 'GET', '/api/billing')).json());
      const applied = async (payload: string) => {
        const res = await deliver(payload, signed(payload));
        expect(res.status, await res.clone().text()).toBe(200);
        return StripeWebhookReceipt.parse(await res.json()).applied;
      };
      /** A user paying `plan` with the subscription `sub_<n>` of the customer `cus_<n>`. */
      const subscribed = async (plan: string) => {
        const who = await signUp(t);
        const n = `${process.pid}_${++events}`;
        const ids = { customer: `cus_test_${n}`, subscription: `sub_test_${n}` };
        // Stripe gives each customer an id of its own; stripe-mock answers every creation with the same one.
        await t.server.storage.billing.setStripeCustomer(who.user._id, ids.customer);
        expect(await applied(completed({ userId: who.user._id, plan }, ids))).toBe(true);
        return { who, ...ids };
      };

      it('goes past_due when a renewal fails, writes going on, and active again once it is paid', async () => {
        const { who, customer, subscription } = await subscribed('team');
        const failed = invoiceEvent('invoice.payment_failed', customer, subscription);
        expect(await applied(failed)).toBe(true);
        expect(await accountOf(who)).toMatchObject({ plan: 'team', status: 'past_due', tier: 'pro' });
        const write = await as(who, 'POST', '/api/v1/data/orders', { total: 1 });
        expect(write.status, await write.clone().text()).toBe(201);
        expect(await applied(invoiceEvent('invoice.paid', customer, subscription, true))).toBe(true);
        expect((await accountOf(who)).status).toBe('active');
        // A replay changes nothing, even after the account moved on.
        expect(await applied(failed)).toBe(false);
        expect((await accountOf(who)).status).toBe('active');
        // Nor does an earlier failure that Stripe delivers after the payment.
        const late = invoiceEvent('invoice.payment_failed', customer, subscription, false, nowSeconds() - 60);
        expect(await applied(late)).toBe(false);
        expect((await accountOf(who)).status).toBe('active');
        const log = await as(who, 'GET', '/api/logs/activity');
        const actions = ((await log.json()) as { data: { action: string }[] }).data.map((e) => e.action);
        expect(actions).toEqual(
          expect.arrayContaining([
            'billing.subscribed',
            'billing.payment_failed',
            'billing.payment_succeeded',
          ]),
        );
      });

      it('ends with a downgrade to free, and ends a past_due status with it', async () => {
        const { who, customer, subscription } = await subscribed('starter');
        expect(await applied(invoiceEvent('invoice.payment_failed', customer, subscription))).toBe(true);
        expect(await applied(subscriptionDeleted(customer, subscription))).toBe(true);
        expect(await accountOf(who)).toMatchObject({ plan: 'free', status: 'active' });
      });

      it("replaces the old plan's subscription when another plan is bought, and outlives its end", async () => {
        const { who, customer, subscription } = await subscribed('starter');
        const upgrade = completed(
          { userId: who.user._id, plan: 'team' },
          { customer, subscription: 'sub_new' },
        );
        expect(await applied(upgrade)).toBe(true);
        expect(await accountOf(who)).toMatchObject({ plan: 'team', status: 'active' });
        // The cancellation asked of Stripe comes back as the old subscription's end: the account stays on team.
        expect(await applied(subscriptionDeleted(customer, subscription))).toBe(false);
        expect(await applied(upgrade)).toBe(false);
        expect((await accountOf(who)).plan).toBe('team');
      });

      it('is unaffected by the end or the invoices of a subscription it replaced, or of another customer', async () => {
        const { who, customer } = await subscribed('team');
        const other = await subscribed('team');
        expect(await applied(subscriptionDeleted(customer, 'sub_replaced'))).toBe(false);
        expect(await applied(invoiceEvent('invoice.payment_failed', customer, 'sub_replaced'))).toBe(false);
        expect(await applied(subscriptionDeleted('cus_unknown', other.subscription))).toBe(false);
        expect(await accountOf(who)).toMatchObject({ plan: 'team', status: 'active' });
        expect(await accountOf(other.who)).toMatchObject({ plan: 'team', status: 'active' });
      });

      it('keeps its plan changes in the history the invoices bill from', async () => {
        const { who, customer, subscription } = await subscribed('team');
        expect(await applied(subscriptionDeleted(customer, subscription))).toBe(true);
        const list = InvoiceList.parse(await (await as(who, 'GET', '/api/billing/invoices')).json());
        // Chosen and ended on the same day: the day's last plan is the one in force.
        expect(list.data[0]!.lines[0]!.description).toBe('Plan: free');
      });
    });

    it('refuses an event over 256 KiB with 413, before looking at it', async () => {
      const who = await signUp(t);
      const payload = completed({ userId: who.user._id, credits: '1000', padding: 'x'.repeat(300 * 1024) });
      await expectError(await deliver(payload, signed(payload)), 413, 'payload_too_large');
      expect(await creditsOf(who)).toBe(0);
    });

    it('refuses unsigned, tampered and stale events, changing nothing', async () => {
      const who = await signUp(t);
      const payload = completed({ userId: who.user._id, credits: '1000' });
      await expectError(await deliver(payload), 400, 'validation_error');
      const tampered = payload.replace('"1000"', '"9000"');
      await expectError(await deliver(tampered, signed(payload)), 400, 'validation_error');
      const stale = signed(payload, Math.floor(Date.now() / 1000) - 600);
      await expectError(await deliver(payload, stale), 400, 'validation_error');
      expect(await creditsOf(who)).toBe(0);
      // The refused deliveries recorded nothing: the genuine event still applies.
      const genuine = await deliver(payload, signed(payload));
      expect(StripeWebhookReceipt.parse(await genuine.json()).applied).toBe(true);
      expect(await creditsOf(who)).toBe(1000);
    });
  },
);
