import { BillingAccount } from '../schemas/account.js';
import { PlanChoiceRequest } from '../schemas/auth.js';
import {
  CheckoutRequest,
  Invoice,
  InvoiceList,
  InvoiceListQuery,
  InvoiceParams,
  RedirectUrl,
  StripeWebhookReceipt,
  UsageList,
  UsageQuery,
} from '../schemas/billing.js';
import type { RouteDefinition } from './types.js';

const tag = 'billing';

/** Said of every payment route: they exist only where the operator configured Stripe. */
const NEEDS_STRIPE =
  'Without `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` in the server configuration it answers 404 `not_found`, naming the missing settings in `details.missing`.';

/** Body limit of the payment provider's webhook: its events are a few KiB, and it is signed as raw text. */
export const STRIPE_WEBHOOK_BODY_LIMIT = 256 * 1024;

/** The signed-in user's billing account, under /api/billing. Session token only; the account is its owner's. */
export const billingRoutes = [
  {
    id: 'billing.get',
    method: 'GET',
    path: '/api/billing',
    tag,
    summary: 'Get your billing account',
    description:
      'Plan, credits, trial, status and the rate-limit tier that follows from them. The trial ends by itself 14 days after sign-up; the plan stays and the tier follows.',
    auth: 'session',
    scopes: [],
    success: { status: 200, description: 'The billing account', schema: BillingAccount },
    errors: [],
  },
  {
    id: 'billing.setPlan',
    method: 'PUT',
    path: '/api/billing/plan',
    tag,
    summary: 'Change your plan',
    description:
      "The same change as `POST /api/auth/plan-choice`: `free`, `starter`, `team` or `payg`. The tier of every key of the account follows at once, on every instance. While a trial is active the tier is the higher of the plan's and `starter`.",
    auth: 'session',
    scopes: [],
    body: PlanChoiceRequest,
    success: { status: 200, description: 'The billing account', schema: BillingAccount },
    errors: ['validation_error'],
  },
  {
    id: 'billing.usage',
    method: 'GET',
    path: '/api/billing/usage',
    tag,
    summary: 'Usage per cluster per day',
    description:
      'Requests, documents, storage, function invocations and webhook deliveries of every cluster the caller owns, per day (UTC), metered from real traffic. Counts reach this list within seconds.',
    auth: 'session',
    scopes: [],
    query: UsageQuery,
    success: { status: 200, description: 'Usage, oldest day first', schema: UsageList },
    errors: ['validation_error'],
  },
  {
    id: 'billing.invoices.list',
    method: 'GET',
    path: '/api/billing/invoices',
    tag,
    summary: 'List your invoices',
    description:
      "One invoice per calendar month since the account was made, newest first, computed from usage and the server's price table. The current month's is a `draft`.",
    auth: 'session',
    scopes: [],
    query: InvoiceListQuery,
    success: { status: 200, description: 'A page of invoices', schema: InvoiceList },
    errors: ['validation_error'],
  },
  {
    id: 'billing.invoices.get',
    method: 'GET',
    path: '/api/billing/invoices/{id}',
    tag,
    summary: 'Get an invoice',
    description:
      'An invoice of another account, or of a month the account did not exist, is 404 `not_found`.',
    auth: 'session',
    scopes: [],
    params: InvoiceParams,
    success: { status: 200, description: 'The invoice', schema: Invoice },
    errors: ['not_found'],
  },
  {
    id: 'billing.checkout',
    method: 'POST',
    path: '/api/billing/checkout',
    tag,
    summary: 'Start a Stripe Checkout',
    description: `A Checkout page for a paid plan or for credits (in cents, at least 500). The plan or the credits apply when Stripe reports the payment to the webhook. ${NEEDS_STRIPE}`,
    auth: 'session',
    scopes: [],
    body: CheckoutRequest,
    success: { status: 200, description: 'The Checkout page', schema: RedirectUrl },
    errors: ['validation_error', 'not_found'],
  },
  {
    id: 'billing.portal',
    method: 'POST',
    path: '/api/billing/portal',
    tag,
    summary: 'Open the Stripe customer portal',
    description: `Where the user manages payment methods and sees Stripe's receipts. ${NEEDS_STRIPE}`,
    auth: 'session',
    scopes: [],
    success: { status: 200, description: 'The portal page', schema: RedirectUrl },
    errors: ['not_found'],
  },
  {
    id: 'billing.stripeWebhook',
    method: 'POST',
    path: '/api/billing/stripe/webhook',
    tag,
    summary: "Stripe's event webhook",
    description: `Called by Stripe, not by users, with a Stripe event as its JSON body. The \`Stripe-Signature\` header is verified against the raw body with \`STRIPE_WEBHOOK_SECRET\`; an unsigned, tampered or stale event is 400 \`validation_error\` and changes nothing. Each event id is applied once: a replay answers 200 with \`applied: false\`. ${NEEDS_STRIPE}`,
    auth: 'public',
    scopes: [],
    bodyLimit: STRIPE_WEBHOOK_BODY_LIMIT,
    success: { status: 200, description: 'The event was verified', schema: StripeWebhookReceipt },
    errors: ['validation_error', 'not_found'],
  },
] as const satisfies readonly RouteDefinition[];
