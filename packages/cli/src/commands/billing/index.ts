import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newBillingInvoicesCommand } from './invoices.js';
import { newBillingPlanCommand } from './plan.js';
import { newBillingShowCommand } from './show.js';
import { newBillingUsageCommand } from './usage.js';

/** `dp billing …`: your plan, usage and invoices. `dp billing` alone shows the account. */
export function newBillingCommand(f: Factory): Command {
  const command = new Command('billing')
    .description('Show your plan, change it, and see usage and invoices (needs a session: `dp login`)')
    .addCommand(newBillingShowCommand(f), { isDefault: true })
    .addCommand(newBillingPlanCommand(f))
    .addCommand(newBillingUsageCommand(f))
    .addCommand(newBillingInvoicesCommand(f));
  return withExamples(command, ['dp billing', 'dp billing plan team', 'dp billing usage --from 2026-11-01']);
}
