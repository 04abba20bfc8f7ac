import { describe, expect, it } from 'vitest';
import {
  addUsageDay,
  checkBillingAllows,
  DEFAULT_PRICES,
  invoiceIdOf,
  invoiceLines,
  invoiceMonthOf,
  meteredCost,
  monthPeriod,
  monthsBetween,
  plansOfMonth,
  zeroTotals,
} from './billing.js';

const day = (requests: number, storageBytes = 0) => ({
  requests,
  storageBytes,
  functionInvocations: 0,
  webhookDeliveries: 0,
});

describe('checkBillingAllows', () => {
  it('refuses data writes of a suspended account with 402, and nothing else', () => {
    expect(checkBillingAllows('suspended', 'data')).toMatchObject({ code: 'payment_required' });
    expect(checkBillingAllows('suspended', 'read')).toBeNull();
    expect(checkBillingAllows('active', 'data')).toBeNull();
    expect(checkBillingAllows('past_due', 'data')).toBeNull();
  });
});

describe('invoice lines', () => {
  it("charge the plan's fee and whole blocks of metered use, in cents", () => {
    const totals = [day(25_000, 1_500_000_000), day(4_999)].reduce(addUsageDay, zeroTotals());
    expect(invoiceLines('starter', totals, DEFAULT_PRICES)).toEqual([
      { description: 'Plan: starter', quantity: 1, unitAmount: 2500, amount: 2500 },
      { description: 'Requests (per 10,000)', quantity: 2, unitAmount: 1, amount: 2 },
      { description: 'Storage (per 1 GB-day)', quantity: 1, unitAmount: 1, amount: 1 },
    ]);
    expect(meteredCost(totals, DEFAULT_PRICES)).toBe(3);
  });

  it('show only the fee when nothing was used', () => {
    expect(invoiceLines('free', zeroTotals(), DEFAULT_PRICES)).toEqual([
      { description: 'Plan: free', quantity: 1, unitAmount: 0, amount: 0 },
    ]);
  });
});

describe('plans of a month', () => {
  const changes = [
    { plan: 'free', changedAt: '2026-01-20T09:00:00.000Z' },
    { plan: 'starter', changedAt: '2026-01-20T09:05:00.000Z' },
    { plan: 'team', changedAt: '2026-02-11T23:59:59.000Z' },
    { plan: 'starter', changedAt: '2026-02-25T00:00:00.000Z' },
  ];

  it("count a change from its day on, the day's last change winning, and a first month whole", () => {
    expect(plansOfMonth(changes, '2025-12')).toEqual([]);
    expect(plansOfMonth(changes, '2026-01')).toEqual([{ plan: 'starter', days: 31 }]);
    expect(plansOfMonth(changes, '2026-02')).toEqual([
      { plan: 'starter', days: 10 + 4 },
      { plan: 'team', days: 14 },
    ]);
    expect(plansOfMonth(changes, '2026-03')).toEqual([{ plan: 'starter', days: 31 }]);
  });

  it('bill the part of the fee of each plan, rounded half up to the cent', () => {
    const lines = invoiceLines({ month: '2026-02', plans: plansOfMonth(changes, '2026-02') }, zeroTotals(), {
      ...DEFAULT_PRICES,
      plans: { starter: 2500, team: 9901 },
    });
    expect(lines).toEqual([
      { description: 'Plan: starter (14 of 28 days)', quantity: 1, unitAmount: 1250, amount: 1250 },
      // 9901 × 14 / 28 = 4950.5
      { description: 'Plan: team (14 of 28 days)', quantity: 1, unitAmount: 4951, amount: 4951 },
    ]);
  });
});

describe('months and invoice ids', () => {
  it('walks months newest first across a year', () => {
    expect(monthsBetween('2025-11', '2026-02')).toEqual(['2026-02', '2026-01', '2025-12', '2025-11']);
    expect(monthsBetween('2026-03', '2026-02')).toEqual([]);
  });

  it('gives each month its last day, leap years included', () => {
    expect(monthPeriod('2028-02')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
    expect(monthPeriod('2026-12')).toEqual({ start: '2026-12-01', end: '2026-12-31' });
  });

  it('reads back the month of its own ids only', () => {
    const id = invoiceIdOf('bil_1', '2026-11');
    expect(id).toBe('inv_bil_1_202611');
    expect(invoiceMonthOf('bil_1', id)).toBe('2026-11');
    expect(invoiceMonthOf('bil_2', id)).toBeNull();
    expect(invoiceMonthOf('bil_1', 'inv_bil_1_202613')).toBeNull();
  });
});
