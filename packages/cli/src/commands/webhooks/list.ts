import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { WEBHOOK_HEADER, webhookRow } from './show.js';

/** `dp webhooks list` (also `dp webhooks`). */
export function newWebhooksListCommand(
  f: Factory,
  run: Run<Record<string, never>> = runWebhooksList,
): Command {
  const command = new Command('list')
    .description('List the webhook subscriptions, oldest first, without their secrets')
    .action(() => run(f, {}));
  return withExamples(command, ['dp webhooks', 'dp webhooks list --json']);
}

/** A table on a terminal, one JSON subscription per line when piped, `{ data }` with --json. */
export async function runWebhooksList(f: Factory): Promise<void> {
  const client = await f.client();
  const list = await attempt('list webhooks', client.webhooks.list());
  const out = await f.output();
  if (out.json) return void (await out.writeJson(list));
  if (!out.tty) {
    for (const webhook of list.data) await out.writeJsonLine(webhook);
    return;
  }
  await out.writeTable(WEBHOOK_HEADER, list.data.map(webhookRow));
  if (list.data.length === 0) out.note('No webhooks yet: `dp webhooks create --url …` makes one');
}
