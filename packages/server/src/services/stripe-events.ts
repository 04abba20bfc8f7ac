import type Stripe from 'stripe';
import type { SubscriptionChange } from '../storage/billing.js';

/** The id of an expandable Stripe field, which is either the id or the object. */
function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * The subscription an invoice bills: `parent.subscription_details` since Stripe's 2025 API versions, the
 * top-level `subscription` field before (an account's webhook endpoint may still be pinned to an older version).
 */
function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf(invoice.parent?.subscription_details?.subscription ?? legacy);
}

/**
 * What a verified event does to a subscription of ours, or null when it is not about one: the end of a
 * subscription (`customer.subscription.deleted`: cancelled, or unpaid after Stripe's retries), a renewal that
 * failed (`invoice.payment_failed`) or was paid (`invoice.paid`). Checkout completion is handled with its purchase.
 */
export function subscriptionChangeOf(event: Stripe.Event, at: string): SubscriptionChange | null {
  switch (event.type) {
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      const customerId = idOf(subscription.customer);
      return customerId ? { kind: 'ended', customerId, subscriptionId: subscription.id, at } : null;
    }
    case 'invoice.payment_failed':
    case 'invoice.paid': {
      const invoice = event.data.object;
      const customerId = idOf(invoice.customer);
      const subscriptionId = invoiceSubscription(invoice);
      // An invoice outside a subscription (none of ours: credits are paid through Checkout) changes nothing.
      if (!customerId || !subscriptionId) return null;
      const kind = event.type === 'invoice.paid' ? 'paid' : 'payment_failed';
      return { kind, customerId, subscriptionId, created: event.created };
    }
    default:
      return null;
  }
}
