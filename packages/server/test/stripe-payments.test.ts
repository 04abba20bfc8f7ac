import { BillingAccount, RedirectUrl, StripeWebhookReceipt } from '@dataplatform/contract';
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

/** A `checkout.session.completed` event as Stripe sends it, with a fresh id. */
function completed(metadata: Record<string, string>): string {
  return JSON.stringify({
    id: `evt_test_${process.pid}_${++events}`,
    object: 'event',
    type: 'checkout.session.completed',
    data: { object: { id: `cs_test_${events}`, object: 'checkout.session', metadata } },
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
