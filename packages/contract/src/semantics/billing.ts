import type { InvoiceLine } from '../schemas/billing.js';
import type { ClusterAction } from './cluster-access.js';
import type { Violation } from './documents.js';

/** Length of the trial a new account starts with. */
export const TRIAL_DAYS = 14;

/** How long before its end the owner is told that the trial is ending (`trial_ending`). */
export const TRIAL_NOTICE_DAYS = 3;

/**
 * May a cluster whose paying account is in `status` do `action`? A `suspended` account (payg, out of credits)
 * keeps reading but cannot write data: 402 `payment_required`, the same from the server and the mocks.
 */
export function checkBillingAllows(status: string, action: ClusterAction): Violation | null {
  if (status !== 'suspended' || action !== 'data') return null;
  return {
    code: 'payment_required',
    message: 'The account is out of credits: add credits to write again',
    details: { status },
  };
}

/** A metered quantity priced per block of units: `cents` for every whole `per` units. */
export interface UnitPrice {
  per: number;
  cents: number;
}

/**
 * What the server charges, in cents: a monthly fee per plan, and metered use. Only whole blocks are charged
 * (integer arithmetic throughout: no floating-point money).
 */
export interface PriceTable {
  plans: Readonly<Record<string, number>>;
  requests: UnitPrice;
  /** Priced per byte-day: the storage of each day added up over the month. */
  storageByteDays: UnitPrice;
  functionInvocations: UnitPrice;
  webhookDeliveries: UnitPrice;
}

const GB = 1_000_000_000;

/** The documented default price table (docs/billing.md); a server may set its own (`DATAPLATFORM_PRICES`). */
export const DEFAULT_PRICES: PriceTable = {
  plans: { free: 0, starter: 2_500, team: 9_900, payg: 0 },
  requests: { per: 10_000, cents: 1 },
  storageByteDays: { per: GB, cents: 1 },
  functionInvocations: { per: 10_000, cents: 2 },
  webhookDeliveries: { per: 1_000, cents: 1 },
};

/** Metered use added up over a period. */
export interface UsageTotals {
  requests: number;
  storageByteDays: number;
  functionInvocations: number;
  webhookDeliveries: number;
}

/** An empty total. */
export function zeroTotals(): UsageTotals {
  return { requests: 0, storageByteDays: 0, functionInvocations: 0, webhookDeliveries: 0 };
}

/** Adds one day of one cluster to `totals`. */
export function addUsageDay(
  totals: UsageTotals,
  day: { requests: number; storageBytes: number; functionInvocations: number; webhookDeliveries: number },
): UsageTotals {
  return {
    requests: totals.requests + day.requests,
    storageByteDays: totals.storageByteDays + day.storageBytes,
    functionInvocations: totals.functionInvocations + day.functionInvocations,
    webhookDeliveries: totals.webhookDeliveries + day.webhookDeliveries,
  };
}

const METERED: readonly {
  field: Exclude<keyof PriceTable, 'plans'>;
  description: (per: number) => string;
}[] = [
  { field: 'requests', description: (per) => `Requests (per ${per.toLocaleString('en-US')})` },
  { field: 'storageByteDays', description: (per) => `Storage (per ${per / GB} GB-day)` },
  {
    field: 'functionInvocations',
    description: (per) => `Function invocations (per ${per.toLocaleString('en-US')})`,
  },
  {
    field: 'webhookDeliveries',
    description: (per) => `Webhook deliveries (per ${per.toLocaleString('en-US')})`,
  },
];

/** A plan and the number of days of a month it was in force. */
export interface PlanDays {
  plan: string;
  days: number;
}

/**
 * The plans in force in `month`, from the account's plan changes (oldest first, `changedAt` an ISO instant): a
 * day is billed at the last plan chosen on or before it, so a change counts from the day it is made. The days of
 * the first month before the account existed count as its first day's plan: a new account pays a whole month.
 */
export function plansOfMonth(
  changes: readonly { plan: string; changedAt: string }[],
  month: string,
): PlanDays[] {
  if (changes.length === 0) return [];
  const firstDay = changes[0]!.changedAt.slice(0, 10);
  const { start, end } = monthPeriod(month);
  // A month before the account existed has no plan.
  if (end < firstDay) return [];
  const days = Number(end.slice(8));
  const spans: PlanDays[] = [];
  for (let d = 1; d <= days; d++) {
    const day = `${start.slice(0, 8)}${String(d).padStart(2, '0')}`;
    const upTo = day < firstDay ? firstDay : day;
    const plan = changes.findLast((change) => change.changedAt.slice(0, 10) <= upTo)?.plan;
    if (plan === undefined) continue;
    const span = spans.find((s) => s.plan === plan);
    if (span) span.days++;
    else spans.push({ plan, days: 1 });
  }
  return spans;
}

/** The lines of the plans' fees: a plan in force for part of the month pays that part, rounded to the cent. */
function planLines(plans: readonly PlanDays[], monthDays: number, prices: PriceTable): InvoiceLine[] {
  return plans.map(({ plan, days }) => {
    const fee = prices.plans[plan] ?? 0;
    if (days >= monthDays) return { description: `Plan: ${plan}`, quantity: 1, unitAmount: fee, amount: fee };
    // Rounded half up in integers: fee × days / monthDays, no floating-point money.
    const amount = Math.floor((2 * fee * days + monthDays) / (2 * monthDays));
    return {
      description: `Plan: ${plan} (${days} of ${monthDays} days)`,
      quantity: 1,
      unitAmount: amount,
      amount,
    };
  });
}

/**
 * The lines of a month's invoice: the fee of each plan in force (one plan for the whole month when `plans` is a
 * name), then one line per metered quantity that was used.
 */
export function invoiceLines(
  plans: string | { month: string; plans: readonly PlanDays[] },
  totals: UsageTotals,
  prices: PriceTable,
): InvoiceLine[] {
  const lines: InvoiceLine[] =
    typeof plans === 'string'
      ? planLines([{ plan: plans, days: 1 }], 1, prices)
      : planLines(plans.plans, Number(monthPeriod(plans.month).end.slice(8)), prices);
  for (const { field, description } of METERED) {
    const price = prices[field];
    const quantity = Math.floor(totals[field] / price.per);
    if (quantity === 0) continue;
    lines.push({
      description: description(price.per),
      quantity,
      unitAmount: price.cents,
      amount: quantity * price.cents,
    });
  }
  return lines;
}

/** What metered use costs, in cents, without the plan's fee: what payg credits pay for. */
export function meteredCost(totals: UsageTotals, prices: PriceTable): number {
  let cents = 0;
  for (const { field } of METERED)
    cents += Math.floor(totals[field] / prices[field].per) * prices[field].cents;
  return cents;
}

/** The calendar month (`YYYY-MM`) of a day or an instant. */
export function monthOf(dateOrInstant: string): string {
  return dateOrInstant.slice(0, 7);
}

/** First and last day of a month (`YYYY-MM`), both included. */
export function monthPeriod(month: string): { start: string; end: string } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return { start: `${month}-01`, end: `${month}-${String(last).padStart(2, '0')}` };
}

/** The months from `first` to `last` (`YYYY-MM`), newest first. */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  let [year, m] = last.split('-').map(Number) as [number, number];
  for (;;) {
    const month = `${year}-${String(m).padStart(2, '0')}`;
    if (month < first) return months;
    months.push(month);
    m -= 1;
    if (m === 0) {
      m = 12;
      year -= 1;
    }
  }
}

/** The id of an account's invoice for a month: stable, so that it can be linked to before the month ends. */
export function invoiceIdOf(billingId: string, month: string): string {
  return `inv_${billingId}_${month.replace('-', '')}`;
}

/** The month an invoice id names, when it is one of this account's; null otherwise. */
export function invoiceMonthOf(billingId: string, invoiceId: string): string | null {
  const prefix = `inv_${billingId}_`;
  if (!invoiceId.startsWith(prefix)) return null;
  const digits = invoiceId.slice(prefix.length);
  if (!/^\d{4}(0[1-9]|1[0-2])$/.test(digits)) return null;
  return `${digits.slice(0, 4)}-${digits.slice(4)}`;
}
