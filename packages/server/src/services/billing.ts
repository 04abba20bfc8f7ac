import {
  addUsageDay,
  type BillingAccount,
  type Invoice,
  invoiceIdOf,
  invoiceLines,
  invoiceMonthOf,
  monthOf,
  monthPeriod,
  monthsBetween,
  type PriceTable,
  plansOfMonth,
  type UsageDay,
  zeroTotals,
} from '@dataplatform/contract';
import type { ClientInfo } from '../auth/client.js';
import { ApiError } from '../http/errors.js';
import type { BillingRecord } from '../storage/accounts.js';
import type { UsageDayRow } from '../storage/billing.js';
import type { Storage } from '../storage/types.js';
import { type Clock, systemClock } from '../webhooks/clock.js';
import { billingAnswer } from './accounts.js';
import type { ActivityLog } from './activity.js';

const DAY_MS = 86_400_000;

/** How far back the usage list reaches when `from` is left out. */
const DEFAULT_USAGE_DAYS = 30;

/** The calendar day (UTC) of an instant in milliseconds. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function usageAnswer(row: UsageDayRow): UsageDay {
  const { day, ...counts } = row;
  return { date: day, ...counts };
}

/**
 * The billing account of a signed-in user: plan, usage, invoices. Usage and invoices are those of the clusters the
 * user created, the ones billed to them; nobody else (not even an owner the creator added) sees or pays for them.
 */
export class BillingService {
  constructor(
    private readonly storage: Storage,
    private readonly activity: ActivityLog,
    private readonly prices: PriceTable,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The account as the API shows it. */
  async get(userId: string): Promise<BillingAccount> {
    return billingAnswer(await this.record(userId), this.clock.now());
  }

  /** Switches the plan (the same change as plan choice at sign-up); the tier of the user's keys follows at once. */
  async setPlan(userId: string, plan: string, client: ClientInfo): Promise<BillingAccount> {
    const billing = await this.storage.accounts.setPlan(
      userId,
      plan,
      new Date(this.clock.now()).toISOString(),
    );
    if (!billing) throw new Error(`User ${userId} has no billing account`);
    await this.activity.record(userId, 'plan.selected', client, { plan });
    return billingAnswer(billing, this.clock.now());
  }

  /** Usage per cluster per day, `from` to `to` included (the last 30 days by default). */
  async usage(userId: string, range: { from?: string; to?: string }): Promise<{ data: UsageDay[] }> {
    const to = range.to ?? dayOf(this.clock.now());
    const from = range.from ?? dayOf(Date.parse(to) - (DEFAULT_USAGE_DAYS - 1) * DAY_MS);
    if (from > to) throw new ApiError('validation_error', '`from` must not be after `to`', { from, to });
    const rows = await this.storage.billing.usage(userId, from, to);
    return { data: rows.map(usageAnswer) };
  }

  /** One invoice per month since the account was made, newest first. */
  async invoices(userId: string, page: { limit: number; skip: number }) {
    const [billing, firstMonth] = await Promise.all([this.record(userId), this.firstMonth(userId)]);
    const months = monthsBetween(firstMonth, monthOf(dayOf(this.clock.now())));
    const shown = months.slice(page.skip, page.skip + page.limit);
    const data = await Promise.all(shown.map((month) => this.invoiceOf(userId, billing, month)));
    return { data, total: months.length, limit: page.limit, skip: page.skip };
  }

  /** One invoice; 404 for an id that is not one of this account's months. */
  async invoice(userId: string, invoiceId: string): Promise<Invoice> {
    const billing = await this.record(userId);
    const month = invoiceMonthOf(billing.id, invoiceId);
    const current = monthOf(dayOf(this.clock.now()));
    if (month === null || month < (await this.firstMonth(userId)) || month > current)
      throw new ApiError('not_found', 'No such invoice');
    return this.invoiceOf(userId, billing, month);
  }

  private async invoiceOf(userId: string, billing: BillingRecord, month: string): Promise<Invoice> {
    const period = monthPeriod(month);
    const [rows, changes] = await Promise.all([
      this.storage.billing.usage(userId, period.start, period.end),
      this.storage.billing.planChanges(userId),
    ]);
    const totals = rows.reduce(addUsageDay, zeroTotals());
    // A past month bills the plans in force then (the plan history), not today's plan.
    const lines = invoiceLines({ month, plans: plansOfMonth(changes, month) }, totals, this.prices);
    const total = lines.reduce((sum, line) => sum + line.amount, 0);
    const current = monthOf(dayOf(this.clock.now()));
    return {
      _id: invoiceIdOf(billing.id, month),
      period,
      lines,
      total,
      currency: 'usd',
      // Nothing to pay is paid; a past month with a total is open until a payment marks it (not kept yet).
      status: month === current ? 'draft' : total === 0 ? 'paid' : 'open',
    };
  }

  /** The month the user's account was made in: its first invoice. */
  private async firstMonth(userId: string): Promise<string> {
    const user = await this.storage.accounts.findUser(userId);
    if (!user) throw new ApiError('unauthorized', 'Invalid session token');
    return monthOf(user.createdAt);
  }

  private async record(userId: string): Promise<BillingRecord> {
    const billing = await this.storage.accounts.billing(userId);
    if (!billing) throw new Error(`User ${userId} has no billing account`);
    return billing;
  }
}

/**
 * The billing status of the account a cluster is billed to (the user who created it), for what acts on a cluster
 * without a key (a function's `ctx.data`); `active` when the cluster or its account is gone.
 */
export async function billedStatus(storage: Storage, clusterId: string): Promise<string> {
  const cluster = await storage.clusters.find(clusterId);
  const billing = cluster && (await storage.accounts.billing(cluster.ownerId));
  return billing?.status ?? 'active';
}
