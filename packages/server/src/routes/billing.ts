import type { billingRoutes } from '@dataplatform/contract';
import { clientOf } from '../auth/client.js';
import type { RouteHandlers } from '../http/route-call.js';
import type { BillingService } from '../services/billing.js';
import type { StripePayments } from '../services/stripe-payments.js';

/** `/api/billing/*`: the signed-in user's plan, usage and invoices, and payments through Stripe. */
export function billingHandlers(
  billing: BillingService,
  payments: StripePayments,
): RouteHandlers<typeof billingRoutes> {
  return {
    'billing.get': ({ request }) => billing.get(request.session!.userId),
    'billing.setPlan': ({ request, body }) =>
      billing.setPlan(request.session!.userId, body.plan, clientOf(request)),
    'billing.usage': ({ request, query }) => billing.usage(request.session!.userId, query),
    'billing.invoices.list': ({ request, query }) =>
      billing.invoices(request.session!.userId, { limit: query.limit, skip: query.skip }),
    'billing.invoices.get': ({ request, params }) => billing.invoice(request.session!.userId, params.id),
    'billing.checkout': ({ request, body }) => payments.checkout(request.session!.userId, body),
    'billing.portal': ({ request }) => payments.portal(request.session!.userId),
    // The body stays text (the route's own body limit): the signature is over the exact bytes Stripe sent.
    'billing.stripeWebhook': ({ request, body }) =>
      payments.receive(body as unknown as string, headerOf(request.headers['stripe-signature'])),
  };
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
