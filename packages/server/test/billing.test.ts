import { randomUUID } from 'node:crypto';
import {
  BillingAccount,
  DEFAULT_PRICES,
  Invoice,
  InvoiceList,
  NotificationList,
  UsageList,
} from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCreditsCommand } from '../src/operator/credits.js';
import { bearer, forEachEngine, type SignedUp, signUp, type TestServer } from './helpers.js';
import { expectError } from './key-helpers.js';

const today = () => new Date().toISOString().slice(0, 10);

/** Counts the orders, then tries to add one: what a suspended account's function may and may not do. */
const WRITER = `export default async (input, ctx) => {
  const read = (await ctx.data.list('orders', { limit: 1 })).total;
  try {
    await ctx.data.create('orders', { total: 1 });
    return { read, write: 'written' };
  } catch (error) {
    return { read, write: error.code };
  }
};`;

forEachEngine(
  (server) => {
    let t: TestServer;
    beforeAll(() => {
      t = server();
    });

    const as = (who: SignedUp, method: string, path: string, body?: unknown) =>
      t.call(method, path, { key: null, headers: bearer(who.token), body });
    const account = async (who: SignedUp) => {
      const res = await as(who, 'GET', '/api/billing');
      expect(res.status, await res.clone().text()).toBe(200);
      return BillingAccount.parse(await res.json());
    };
    const setPlan = async (who: SignedUp, plan: string) => {
      const res = await as(who, 'PUT', '/api/billing/plan', { plan });
      expect(res.status, await res.clone().text()).toBe(200);
      return BillingAccount.parse(await res.json());
    };
    const write = (who: SignedUp) => as(who, 'POST', '/api/v1/data/orders', { total: 1 });
    /** The user's notifications, newest first. */
    const notified = async (who: SignedUp) => {
      const res = await as(who, 'GET', '/api/notifications');
      expect(res.status, await res.clone().text()).toBe(200);
      return NotificationList.parse(await res.json()).data;
    };
    const billing = () => t.server.app.billing;

    describe('the account', () => {
      it('starts on the free plan with a 14-day trial, so its tier is starter', async () => {
        const who = await signUp(t);
        const got = await account(who);
        expect(got).toMatchObject({
          plan: 'free',
          credits: 0,
          trialActive: true,
          status: 'active',
          tier: 'starter',
        });
        const days = (Date.parse(got.trialExpiresAt!) - Date.now()) / 86_400_000;
        expect(Math.round(days)).toBe(14);
      });

      it('changes the plan and its tier, and the rate limit of keys follows at once', async () => {
        const who = await signUp(t);
        const made = await as(who, 'POST', '/api/keys', { name: 'k', scopes: ['data:read'] });
        expect(made.status, await made.clone().text()).toBe(201);
        const { secret } = (await made.json()) as { secret: string };
        const limitOf = async () =>
          (await t.call('GET', '/api/v1/data/orders', { key: secret })).headers.get('ratelimit-limit');
        expect(await limitOf()).toBe('500');
        expect((await setPlan(who, 'team')).tier).toBe('pro');
        expect(await limitOf()).toBe('2000');
        // The trial still runs: free is starter until it ends.
        expect((await setPlan(who, 'free')).tier).toBe('starter');
        expect(await limitOf()).toBe('500');
      });

      it('refuses a plan that is not on offer', async () => {
        const who = await signUp(t);
        await expectError(
          await as(who, 'PUT', '/api/billing/plan', { plan: 'enterprise' }),
          400,
          'validation_error',
        );
      });

      it('refuses API keys', async () => {
        await expectError(await t.call('GET', '/api/billing'), 401, 'unauthorized');
      });
    });

    describe('the trial', () => {
      it('ends once, after its 14 days, and is noticed 3 days before, once', async () => {
        const who = await signUp(t);
        const ends = Date.parse((await account(who)).trialExpiresAt!);
        const tasks = billing().tasks;
        expect(await tasks.noticeTrials(new Date(ends - 4 * 86_400_000))).not.toContain(who.user._id);
        expect(await tasks.noticeTrials(new Date(ends - 3 * 86_400_000 + 1000))).toContain(who.user._id);
        expect(await tasks.noticeTrials(new Date(ends - 2 * 86_400_000))).not.toContain(who.user._id);
        expect(await tasks.endTrials(new Date(ends - 1000))).not.toContain(who.user._id);
        expect(await tasks.endTrials(new Date(ends))).toContain(who.user._id);
        expect(await tasks.endTrials(new Date(ends + 86_400_000))).not.toContain(who.user._id);
        const log = await as(who, 'GET', '/api/logs/activity');
        const actions = ((await log.json()) as { data: { action: string }[] }).data.map((e) => e.action);
        expect(actions).toEqual(expect.arrayContaining(['billing.trial_ending', 'billing.trial_ended']));
        expect(await notified(who)).toEqual([
          expect.objectContaining({
            kind: 'trial_ending',
            body: expect.stringContaining(new Date(ends).toISOString()),
          }),
        ]);
      });
    });

    describe('usage', () => {
      it('meters every data request of the cluster exactly, and reads what it holds', async () => {
        const who = await signUp(t);
        for (let i = 0; i < 7; i++) expect((await write(who)).status).toBe(201);
        expect((await as(who, 'GET', '/api/v1/data/orders')).status).toBe(200);
        await billing().meter!.flush();
        await billing().tasks.readStorage(new Date());
        const res = await as(who, 'GET', `/api/billing/usage?from=${today()}&to=${today()}`);
        expect(res.status, await res.clone().text()).toBe(200);
        const { data } = UsageList.parse(await res.json());
        expect(data).toHaveLength(1);
        expect(data[0]).toMatchObject({
          date: today(),
          requests: 8,
          documents: 7,
          functionInvocations: 0,
          webhookDeliveries: 0,
        });
        expect(data[0]!.storageBytes).toBeGreaterThan(0);
      });

      it("counts the function invocations the functions area reports, on the function's cluster", async () => {
        const who = await signUp(t);
        const clusterId = (await t.server.storage.accounts.ownedCluster(who.user._id, null))!;
        for (let i = 0; i < 3; i++) billing().meter!.recordFunctionInvocation(clusterId);
        await billing().meter!.flush();
        const res = await as(who, 'GET', `/api/billing/usage?from=${today()}&to=${today()}`);
        const { data } = UsageList.parse(await res.json());
        expect(data).toEqual([expect.objectContaining({ clusterId, functionInvocations: 3, requests: 0 })]);
      });

      it('shows nobody else the usage of a cluster', async () => {
        const who = await signUp(t);
        const other = await signUp(t);
        expect((await write(who)).status).toBe(201);
        await billing().meter!.flush();
        const { data } = UsageList.parse(await (await as(other, 'GET', '/api/billing/usage')).json());
        expect(data).toEqual([]);
      });

      it('refuses a range that ends before it starts', async () => {
        const who = await signUp(t);
        await expectError(
          await as(who, 'GET', '/api/billing/usage?from=2026-02-02&to=2026-02-01'),
          400,
          'validation_error',
        );
      });
    });

    describe('invoices', () => {
      it("lists this month's draft with the plan's fee, and gets it by id", async () => {
        const who = await signUp(t);
        await setPlan(who, 'starter');
        const list = InvoiceList.parse(await (await as(who, 'GET', '/api/billing/invoices')).json());
        expect(list.total).toBe(1);
        const [invoice] = list.data;
        expect(invoice).toMatchObject({ status: 'draft', currency: 'usd' });
        expect(invoice!.period.start).toBe(`${today().slice(0, 7)}-01`);
        expect(invoice!.lines[0]).toEqual({
          description: 'Plan: starter',
          quantity: 1,
          unitAmount: DEFAULT_PRICES.plans.starter,
          amount: DEFAULT_PRICES.plans.starter,
        });
        expect(invoice!.total).toBe(invoice!.lines.reduce((sum, line) => sum + line.amount, 0));
        const one = await as(who, 'GET', `/api/billing/invoices/${invoice!._id}`);
        expect(Invoice.parse(await one.json())).toEqual(invoice);
      });

      it('bills each past month at the plans in force then, not at the plan of today', async () => {
        const now = new Date();
        // An instant `back` months before this one, on `day` of that month (UTC).
        const monthsAgo = (back: number, day: number, hour = 0) =>
          new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, day, hour)).toISOString();
        const id = `plan-history-${randomUUID()}`;
        const made = await t.server.storage.accounts.create({
          user: {
            id,
            email: `${id}@example.com`,
            name: 'History',
            passwordHash: 'x',
            createdAt: monthsAgo(3, 10),
          },
          billing: { id: `ba-${id}`, plan: 'free', trialExpiresAt: null, enterprise: false },
          cluster: { id: `cl-${id}`, name: 'History', region: 'local', tier: 'free' },
        });
        expect(made).toBe('created');
        await t.server.storage.accounts.setPlan(id, 'team', monthsAgo(2, 16, 12));
        await t.server.storage.accounts.setPlan(id, 'starter', monthsAgo(0, 1));
        const { data } = await billing().service.invoices(id, { limit: 12, skip: 0 });
        const plans = data.map((invoice) =>
          invoice.lines.map(({ description, amount }) => ({ description, amount })),
        );
        const days = Number(new Date(monthsAgo(1, 0)).getUTCDate());
        const team = DEFAULT_PRICES.plans.team!;
        expect(plans).toEqual([
          [{ description: 'Plan: starter', amount: DEFAULT_PRICES.plans.starter }],
          [{ description: 'Plan: team', amount: team }],
          [
            { description: `Plan: free (15 of ${days} days)`, amount: 0 },
            {
              description: `Plan: team (${days - 15} of ${days} days)`,
              amount: Math.round((team * (days - 15)) / days),
            },
          ],
          // The account was made on the 10th: its first month is a whole month of its first plan.
          [{ description: 'Plan: free', amount: 0 }],
        ]);
      });

      it("answers 404 for another account's invoice", async () => {
        const who = await signUp(t);
        const other = await signUp(t);
        const list = InvoiceList.parse(await (await as(who, 'GET', '/api/billing/invoices')).json());
        await expectError(
          await as(other, 'GET', `/api/billing/invoices/${list.data[0]!._id}`),
          404,
          'not_found',
        );
      });
    });

    describe('payg credits', () => {
      it('pays metered use from credits, suspends writes at zero with 402, and lifts at once with credits', async () => {
        const who = await signUp(t);
        await t.server.storage.billing.grantCredits({ userId: who.user._id }, 5);
        await setPlan(who, 'payg');
        for (let i = 0; i < 3; i++) expect((await write(who)).status).toBe(201);
        await billing().meter!.flush();
        await billing().tasks.chargePayg(new Date());
        expect(await account(who)).toMatchObject({ credits: 2, status: 'active' });
        for (let i = 0; i < 2; i++) expect((await write(who)).status).toBe(201);
        await billing().meter!.flush();
        await billing().tasks.chargePayg(new Date());
        expect(await account(who)).toMatchObject({ credits: 0, status: 'suspended' });
        // Told once, by the charge that crossed zero.
        await billing().tasks.chargePayg(new Date());
        expect((await notified(who)).filter((n) => n.kind === 'usage_limit')).toHaveLength(1);
        await expectError(await write(who), 402, 'payment_required');
        // Reads still work, so the owner can see and take out their data.
        expect((await as(who, 'GET', '/api/v1/data/orders')).status).toBe(200);
        // A function of the account's cluster reads but does not write either.
        const made = await as(who, 'POST', '/api/functions', { name: 'writer', code: WRITER });
        expect(made.status, await made.clone().text()).toBe(201);
        const fn = (await made.json()) as { _id: string };
        const invoke = async () => {
          const res = await as(who, 'POST', `/api/functions/${fn._id}/invoke`, {});
          expect(res.status, await res.clone().text()).toBe(200);
          return ((await res.json()) as { result: unknown }).result;
        };
        expect(await invoke()).toEqual({ read: 5, write: 'payment_required' });
        await t.server.storage.billing.grantCredits({ email: who.email }, 1000);
        expect((await account(who)).status).toBe('active');
        expect((await write(who)).status).toBe(201);
        expect(await invoke()).toEqual({ read: 6, write: 'written' });
        // Every run is metered as one invocation, the refused write's too.
        await billing().meter!.flush();
        const usage = UsageList.parse(await (await as(who, 'GET', '/api/billing/usage')).json());
        expect(usage.data.reduce((sum, day) => sum + day.functionInvocations, 0)).toBe(2);
      });

      it('grants credits with the operator command, and names a missing user', async () => {
        const who = await signUp(t);
        const env = t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : { DATAPLATFORM_DATA_DIR: t.dataDir };
        const lines: string[] = [];
        const output = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
        expect(await runCreditsCommand(['grant', who.email, '2500'], env, output)).toBe(0);
        expect(lines.at(-1)).toMatch(/2500 cents available/);
        expect((await account(who)).credits).toBe(2500);
        const log = await as(who, 'GET', '/api/logs/activity');
        const entries = ((await log.json()) as { data: { action: string; details: unknown }[] }).data;
        expect(entries[0]).toMatchObject({ action: 'billing.credits_added', details: { cents: 2500 } });
        expect(await runCreditsCommand(['grant', 'nobody@example.com', '1'], env, output)).toBe(1);
        expect(await runCreditsCommand(['grant', who.email, '-5'], env, output)).toBe(2);
      });
    });

    describe('payments without Stripe', () => {
      it('answer 404 naming the missing settings', async () => {
        const who = await signUp(t);
        for (const [path, body] of [
          ['/api/billing/checkout', { credits: 500 }],
          ['/api/billing/portal', undefined],
        ] as const) {
          const res = await as(who, 'POST', path, body);
          const error = await expectError(res, 404, 'not_found');
          expect(error.details).toEqual({ missing: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] });
        }
        const hook = await t.call('POST', '/api/billing/stripe/webhook', {
          key: null,
          body: { id: 'evt_1' },
        });
        await expectError(hook, 404, 'not_found');
      });
    });
  },
  { config: { prices: { ...DEFAULT_PRICES, requests: { per: 1, cents: 1 } } } },
);
