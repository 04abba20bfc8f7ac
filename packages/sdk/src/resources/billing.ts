import type {
  BillingAccount,
  CheckoutRequest,
  Invoice,
  Plan,
  RedirectUrl,
  UsageList,
} from '../contract-types.js';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import type { RequestOptions } from '../internal/request-options.js';
import { segment } from '../internal/utils.js';

/** Query of `client.billing.usage()`: days (`YYYY-MM-DD`, UTC), both ends included. */
export interface UsageParams {
  /** First day; 30 days before `to` when left out. */
  from?: string;
  /** Last day; today when left out. */
  to?: string;
}

/** Query of `client.billing.invoices.list()`. */
export interface InvoiceListParams {
  /** Invoices per page, 1 to 1000 (default 50). */
  limit?: number;
  skip?: number;
}

/** Monthly statements: `/api/billing/invoices`. */
export class BillingInvoices extends APIResource {
  /**
   * One invoice per month, newest first: await for a page, or `for await` for every one.
   * @example for await (const invoice of client.billing.invoices.list()) console.log(invoice.period.start, invoice.total);
   */
  list(params: InvoiceListParams = {}, options?: RequestOptions): PagePromise<Invoice> {
    return this._client.getAPIList(
      '/api/billing/invoices',
      { limit: params.limit, skip: params.skip },
      options,
    );
  }

  /** One invoice; NotFoundError for an id that is not one of your months. */
  get(id: string, options?: RequestOptions): APIPromise<Invoice> {
    return this._client.get(`/api/billing/invoices/${segment(id, 'invoice id')}`, options);
  }
}

/**
 * The signed-in user's billing account, under `/api/billing` (session token only): plan and tier, usage per
 * cluster per day, invoices, and payments through Stripe where the server has it.
 * @example const { plan, tier, credits } = await client.billing.get();
 */
export class Billing extends APIResource {
  /** `/api/billing/invoices`. */
  readonly invoices: BillingInvoices = new BillingInvoices(this._client);

  /** Plan, credits (cents), trial, status and rate-limit tier. */
  get(options?: RequestOptions): APIPromise<BillingAccount> {
    return this._client.get('/api/billing', options);
  }

  /** Changes the plan; the tier of every key follows at once. */
  setPlan(plan: Plan, options?: RequestOptions): APIPromise<BillingAccount> {
    return this._client.put('/api/billing/plan', { ...options, body: { plan } });
  }

  /** Requests, documents, storage, function invocations and webhook deliveries per cluster per day. */
  usage(params: UsageParams = {}, options?: RequestOptions): APIPromise<UsageList> {
    return this._client.get('/api/billing/usage', {
      ...options,
      query: { from: params.from, to: params.to },
    });
  }

  /** A Stripe Checkout page for a plan or for credits (cents); NotFoundError where the server has no Stripe. */
  checkout(body: CheckoutRequest, options?: RequestOptions): APIPromise<RedirectUrl> {
    return this._client.post('/api/billing/checkout', { ...options, body });
  }

  /** The Stripe customer portal; NotFoundError where the server has no Stripe. */
  portal(options?: RequestOptions): APIPromise<RedirectUrl> {
    return this._client.post('/api/billing/portal', options);
  }
}
