import type { BillingAccount } from '@dataplatform/sdk';
import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import type { Output } from '../../output/printer.js';
import { type Run, withExamples } from '../command.js';

const HEADER = ['plan', 'tier', 'status', 'credits', 'trial'];

/** Credits in dollars, from whole cents, without floating-point arithmetic. */
export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function trialOf(account: BillingAccount): string {
  if (account.trialActive && account.trialExpiresAt) return `until ${account.trialExpiresAt.slice(0, 10)}`;
  return 'none';
}

/** The account: the record with --json, a JSON line when piped, a one-row table on a terminal. */
export async function writeBillingAccount(out: Output, account: BillingAccount): Promise<void> {
  if (out.json) return void (await out.writeJson(account));
  if (!out.tty) return void (await out.writeJsonLine(account));
  await out.writeTable(HEADER, [
    [account.plan, account.tier, account.status, dollars(account.credits), trialOf(account)],
  ]);
}

/** `dp billing show` (also `dp billing`). */
export function newBillingShowCommand(f: Factory, run: Run<Record<string, never>> = runBillingShow): Command {
  const command = new Command('show')
    .description('Show your plan, rate-limit tier, status, credits and trial')
    .action(() => run(f, {}));
  return withExamples(command, ['dp billing', 'dp billing show --json']);
}

export async function runBillingShow(f: Factory): Promise<void> {
  const client = await f.client();
  const account = await attempt('show the billing account', client.billing.get());
  await writeBillingAccount(await f.output(), account);
}
