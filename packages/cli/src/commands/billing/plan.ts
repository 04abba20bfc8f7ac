import type { Plan } from '@dataplatform/sdk';
import { Argument, Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { writeBillingAccount } from './show.js';

/** Options of `dp billing plan`. */
export interface BillingPlanOptions {
  plan: Plan;
}

const PLANS: readonly Plan[] = ['free', 'starter', 'team', 'payg'];

/** `dp billing plan <plan>`. */
export function newBillingPlanCommand(f: Factory, run: Run<BillingPlanOptions> = runBillingPlan): Command {
  const command = new Command('plan')
    .description('Change your plan (free, starter, team or payg); your keys get the new tier at once')
    .addArgument(new Argument('<plan>', 'the plan to switch to').choices(PLANS))
    .action((plan: string) => run(f, { plan: plan as Plan }));
  return withExamples(command, ['dp billing plan team', 'dp billing plan payg --json']);
}

export async function runBillingPlan(f: Factory, { plan }: BillingPlanOptions): Promise<void> {
  const client = await f.client();
  const account = await attempt(`change the plan to "${plan}"`, client.billing.setPlan(plan));
  const out = await f.output();
  await writeBillingAccount(out, account);
  out.success(`Plan is ${account.plan}; keys are on the ${account.tier} tier`);
}
