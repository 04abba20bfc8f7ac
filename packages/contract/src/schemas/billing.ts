import { z } from 'zod';
import { PLANS } from './account.js';
import { fromQuery, listEnvelope } from './common.js';

/** A calendar day in UTC, `YYYY-MM-DD`. */
export const UsageDate = z.iso.date().meta({ description: 'A calendar day in UTC', example: '2026-11-26' });

/** Query of the usage route: a range of days, both ends included. */
export const UsageQuery = z.object({
  from: fromQuery(UsageDate.optional().meta({ description: 'First day; 30 days before `to` when left out' })),
  to: fromQuery(UsageDate.optional().meta({ description: 'Last day; today when left out' })),
});

/** Metered use of one cluster on one day. */
export const UsageDay = z
  .object({
    date: UsageDate,
    clusterId: z.string(),
    requests: z.number().int().min(0).meta({ description: 'Data-plane requests answered' }),
    documents: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Documents stored at the last reading of the day' }),
    storageBytes: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Bytes stored at the last reading of the day' }),
    functionInvocations: z.number().int().min(0),
    webhookDeliveries: z.number().int().min(0).meta({ description: 'Webhook delivery attempts made' }),
  })
  .meta({ id: 'UsageDay', description: 'What one cluster used on one day, metered from its traffic.' });

/** The usage of the account's clusters. */
export const UsageList = z
  .object({ data: z.array(UsageDay) })
  .meta({ id: 'UsageList', description: 'Usage per cluster per day, oldest day first.' });

/** States of an invoice. */
export const INVOICE_STATUSES = ['draft', 'open', 'paid'] as const;

/** One line of an invoice; amounts in cents. */
export const InvoiceLine = z
  .object({
    description: z.string(),
    quantity: z.number().int().min(0),
    unitAmount: z.number().int().min(0).meta({ description: 'Price of one unit, in cents' }),
    amount: z.number().int().min(0).meta({ description: '`quantity` × `unitAmount`, in cents' }),
  })
  .meta({ id: 'InvoiceLine', description: 'A charge of an invoice.' });

/** A monthly statement. */
export const Invoice = z
  .object({
    _id: z.string(),
    period: z
      .object({ start: UsageDate, end: UsageDate })
      .meta({ description: 'Calendar month, both ends included' }),
    lines: z.array(InvoiceLine),
    total: z.number().int().min(0).meta({ description: 'Sum of the lines, in cents' }),
    currency: z.literal('usd'),
    status: z.enum(INVOICE_STATUSES).meta({
      description: 'draft: the current month, still changing; open: a past month not yet paid; paid',
    }),
  })
  .meta({
    id: 'Invoice',
    description: "A month's statement, computed from usage and the server's price table.",
  });

/** One page of invoices, newest first. */
export const InvoiceList = listEnvelope(Invoice, 'InvoiceList');

/** Query of the invoice list. */
export const InvoiceListQuery = z.object({
  limit: fromQuery(
    z.coerce.number().int().min(1).max(1000).default(50).meta({ description: 'Page size, 1 to 1000' }),
  ),
  skip: fromQuery(z.coerce.number().int().min(0).default(0).meta({ description: 'Invoices to skip' })),
});

/** Path of an invoice route. */
export const InvoiceParams = z.object({ id: z.string().min(1).max(128) });

/** Smallest credit top-up through Checkout, in cents. */
export const MIN_CREDIT_TOP_UP = 500;

/**
 * Request for a Checkout page: a paid plan, or credits to buy. Two strict shapes, so that "exactly one of them" is
 * in the OpenAPI document too, not only in the server.
 */
export const CheckoutRequest = z
  .union(
    [
      z
        .strictObject({
          plan: z.enum(PLANS).exclude(['free']).meta({ description: 'The plan to subscribe to' }),
        })
        .meta({ id: 'PlanCheckout', description: 'Checkout of a paid plan.' }),
      z
        .strictObject({
          credits: z
            .number()
            .int()
            .min(MIN_CREDIT_TOP_UP)
            .max(100_000_000)
            .meta({ description: 'Credits to buy, in cents (at least 500)' }),
        })
        .meta({ id: 'CreditsCheckout', description: 'Checkout of payg credits.' }),
    ],
    { error: 'Give exactly one of `plan` and `credits`' },
  )
  .meta({ id: 'CheckoutRequest', description: 'What the Checkout page sells: a plan or credits.' });

/** A page of the payment provider to send the user to. */
export const RedirectUrl = z
  .object({ url: z.url() })
  .meta({ id: 'RedirectUrl', description: "The payment provider's page for the user." });

/** What the payment provider's webhook is answered with. */
export const StripeWebhookReceipt = z
  .object({
    received: z.literal(true),
    applied: z
      .boolean()
      .meta({ description: 'False when the event was seen before or concerns nothing here' }),
  })
  .meta({ id: 'StripeWebhookReceipt', description: 'The event was verified and recorded.' });

/** A day of usage. */
export type UsageDay = z.infer<typeof UsageDay>;
/** An invoice. */
export type Invoice = z.infer<typeof Invoice>;
/** A line of an invoice. */
export type InvoiceLine = z.infer<typeof InvoiceLine>;
/** The usage list. */
export type UsageList = z.infer<typeof UsageList>;
/** A page of invoices. */
export type InvoiceList = z.infer<typeof InvoiceList>;
/** A request for a Checkout page. */
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;
/** A payment provider's page. */
export type RedirectUrl = z.infer<typeof RedirectUrl>;
