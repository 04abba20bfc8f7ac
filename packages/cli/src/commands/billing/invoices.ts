import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { dollars } from './show.js';

/** Options of `dp billing invoices`: one invoice when `id` is given, else the list. */
export interface BillingInvoicesOptions {
  id?: string;
}

/** `dp billing invoices [id]`. */
export function newBillingInvoicesCommand(
  f: Factory,
  run: Run<BillingInvoicesOptions> = runBillingInvoices,
): Command {
  const command = new Command('invoices')
    .description('List your monthly invoices, newest first, or show one with its lines')
    .argument('[id]', 'an invoice id (the list shows them)')
    .action((id: string | undefined) => run(f, { id }));
  return withExamples(command, ['dp billing invoices', 'dp billing invoices inv_… --json']);
}

export async function runBillingInvoices(f: Factory, { id }: BillingInvoicesOptions): Promise<void> {
  const client = await f.client();
  if (id !== undefined) {
    const invoice = await attempt(`show invoice "${id}"`, client.billing.invoices.get(id));
    const out = await f.output();
    if (out.json) return void (await out.writeJson(invoice));
    if (!out.tty) return void (await out.writeJsonLine(invoice));
    await out.writeTable(
      ['description', 'quantity', 'unit', 'amount'],
      [
        ...invoice.lines.map((l) => [l.description, l.quantity, dollars(l.unitAmount), dollars(l.amount)]),
        ['Total', '', '', dollars(invoice.total)],
      ],
    );
    return;
  }
  const list = await attempt('list invoices', client.billing.invoices.list({ limit: 1000 }));
  const out = await f.output();
  if (out.json) return void (await out.writeJson(list));
  if (!out.tty) {
    for (const invoice of list.data) await out.writeJsonLine(invoice);
    return;
  }
  await out.writeTable(
    ['id', 'month', 'status', 'total'],
    list.data.map((i) => [i._id, i.period.start.slice(0, 7), i.status, dollars(i.total)]),
  );
}
