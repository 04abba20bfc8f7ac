import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';

/** Options of `dp billing usage`. */
export interface BillingUsageOptions {
  from?: string;
  to?: string;
}

const HEADER = ['date', 'cluster', 'requests', 'documents', 'bytes', 'functions', 'webhooks'];

/** `dp billing usage [--from day] [--to day]`. */
export function newBillingUsageCommand(f: Factory, run: Run<BillingUsageOptions> = runBillingUsage): Command {
  const command = new Command('usage')
    .description('Usage of your clusters per day (UTC): requests, documents, storage, functions, webhooks')
    .option('--from <day>', 'first day, YYYY-MM-DD (default: 30 days before --to)')
    .option('--to <day>', 'last day, YYYY-MM-DD (default: today)')
    .action((options: BillingUsageOptions) => run(f, options));
  return withExamples(command, ['dp billing usage', 'dp billing usage --from 2026-11-01 --json']);
}

export async function runBillingUsage(f: Factory, options: BillingUsageOptions): Promise<void> {
  const client = await f.client();
  const usage = await attempt('show usage', client.billing.usage({ from: options.from, to: options.to }));
  const out = await f.output();
  if (out.json) return void (await out.writeJson(usage));
  if (!out.tty) {
    for (const day of usage.data) await out.writeJsonLine(day);
    return;
  }
  await out.writeTable(
    HEADER,
    usage.data.map((d) => [
      d.date,
      d.clusterId,
      d.requests,
      d.documents,
      d.storageBytes,
      d.functionInvocations,
      d.webhookDeliveries,
    ]),
  );
}
