import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newBillingInvoicesCommand } from './invoices.js';
import { newBillingPlanCommand } from './plan.js';
import { dollars } from './show.js';
import { newBillingUsageCommand } from './usage.js';

describe('dp billing: arguments', () => {
  it('parses plan, usage and invoices', async () => {
    expect(await parseArgs(newBillingPlanCommand, ['team'])).toMatchObject({
      ok: true,
      options: { plan: 'team' },
    });
    expect(await parseArgs(newBillingUsageCommand, ['--from', '2026-11-01'])).toMatchObject({
      ok: true,
      options: { from: '2026-11-01' },
    });
    expect(await parseArgs(newBillingInvoicesCommand, ['inv_1'])).toMatchObject({
      ok: true,
      options: { id: 'inv_1' },
    });
  });

  it.each([
    [newBillingPlanCommand, []],
    [newBillingPlanCommand, ['enterprise']],
  ] as const)('refuses bad arguments with exit status 2 (%#)', async (make, argv) => {
    expect(await parseArgs(make as never, [...argv])).toMatchObject({ ok: false, code: 2 });
  });

  it('writes cents as dollars without rounding', () => {
    expect([dollars(0), dollars(5), dollars(2500), dollars(-101)]).toEqual([
      '$0.00',
      '$0.05',
      '$25.00',
      '-$1.01',
    ]);
  });
});

describe('dp billing: run', () => {
  const api = useMockApi();

  async function signedIn() {
    const base = api.env.DATAPLATFORM_BASE_URL;
    const res = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `b-${Math.random().toString(36).slice(2)}@example.com`,
        password: 'a long passphrase',
        name: 'B',
      }),
    });
    const { token } = (await res.json()) as { token: string };
    return { DATAPLATFORM_BASE_URL: base!, DATAPLATFORM_TOKEN: token };
  }

  it('shows the account, changes the plan, and lists usage and invoices', async () => {
    const env = await signedIn();
    const shown = await runCli(['billing', '--json'], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ plan: 'free', tier: 'starter' });
    const changed = await runCli(['billing', 'plan', 'team', '--json'], { env });
    expect(JSON.parse(changed.stdout)).toMatchObject({ plan: 'team', tier: 'pro' });
    const usage = await runCli(['billing', 'usage', '--json'], { env });
    expect(JSON.parse(usage.stdout)).toEqual({ data: [] });
    const list = await runCli(['billing', 'invoices', '--json'], { env });
    const invoices = JSON.parse(list.stdout) as { total: number; data: { _id: string }[] };
    expect(invoices.total).toBe(1);
    const one = await runCli(['billing', 'invoices', invoices.data[0]!._id, '--json'], { env });
    expect(JSON.parse(one.stdout)).toMatchObject({ _id: invoices.data[0]!._id, status: 'draft' });
  });

  it('exits 4 for an invoice that is not yours', async () => {
    const env = await signedIn();
    const missing = await runCli(['billing', 'invoices', 'inv_nope'], { env });
    expect(missing.code).toBe(4);
  });
});
