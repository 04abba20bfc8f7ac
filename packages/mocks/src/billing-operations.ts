import {
  type billingRoutes,
  DEFAULT_PRICES,
  type Invoice,
  invoiceIdOf,
  invoiceLines,
  invoiceMonthOf,
  monthOf,
  monthPeriod,
  monthsBetween,
  zeroTotals,
} from '@dataplatform/contract';
import type { AccountModel } from './accounts.js';
import { type Answer, ApiError } from './answers.js';
import type { Operation } from './document-operations.js';
import type { OperationInput } from './request-input.js';

type RouteId = (typeof billingRoutes)[number]['id'];

type Call = OperationInput & { userId: string; model: AccountModel };

/** A billing route: the session was checked before it, as on the server. */
function operation(run: (call: Call) => unknown): Operation {
  return (input): Answer => {
    const account = input.account;
    if (!account?.session) throw new Error('billing routes need a session');
    return { status: 200, body: run({ ...input, userId: account.session.userId, model: account.model }) };
  };
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * A month's invoice in the mocks: they meter no traffic, so it holds the plan's fee alone, priced by the
 * documented default table.
 */
function invoiceOf(model: AccountModel, userId: string, month: string): Invoice {
  const billing = model.billing(userId);
  const lines = invoiceLines(billing.plan, zeroTotals(), DEFAULT_PRICES);
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  const status = month === monthOf(today()) ? 'draft' : total === 0 ? 'paid' : 'open';
  return {
    _id: invoiceIdOf(billing._id, month),
    period: monthPeriod(month),
    lines,
    total,
    currency: 'usd',
    status,
  };
}

let links = 0;

/**
 * The mocks answer as a server with Stripe in test mode: Checkout and portal links that lead nowhere, and a
 * webhook that takes any event and applies none (the mocks hold no signing secret to check it against).
 */
const testModeLink = (kind: 'checkout' | 'portal') =>
  kind === 'checkout'
    ? `https://checkout.stripe.com/c/pay/cs_test_mock_${++links}`
    : `https://billing.stripe.com/p/session/test_mock_${++links}`;

/** The behaviour of `/api/billing/*`, as on a server with Stripe in test mode. */
export const billingOperations: Record<RouteId, Operation> = {
  'billing.get': operation((c) => c.model.billing(c.userId)),
  'billing.setPlan': operation((c) =>
    c.model.choosePlan(c.userId, (c.body as { plan: string }).plan, c.account!.client),
  ),
  'billing.usage': operation((c) => {
    const { from, to } = c.query as { from?: string; to?: string };
    if (from !== undefined && to !== undefined && from > to)
      throw new ApiError('validation_error', '`from` must not be after `to`', { from, to });
    return { data: [] };
  }),
  'billing.invoices.list': operation((c) => {
    const { limit, skip } = c.query as { limit: number; skip: number };
    const months = monthsBetween(monthOf(c.model.user(c.userId).createdAt), monthOf(today()));
    const data = months.slice(skip, skip + limit).map((month) => invoiceOf(c.model, c.userId, month));
    return { data, total: months.length, limit, skip };
  }),
  'billing.invoices.get': operation((c) => {
    const month = invoiceMonthOf(c.model.billing(c.userId)._id, c.params.id ?? '');
    const first = monthOf(c.model.user(c.userId).createdAt);
    if (month === null || month < first || month > monthOf(today()))
      throw new ApiError('not_found', 'No such invoice');
    return invoiceOf(c.model, c.userId, month);
  }),
  'billing.checkout': operation(() => ({ url: testModeLink('checkout') })),
  'billing.portal': operation(() => ({ url: testModeLink('portal') })),
  'billing.stripeWebhook': () => ({ status: 200, body: { received: true, applied: false } }),
};
