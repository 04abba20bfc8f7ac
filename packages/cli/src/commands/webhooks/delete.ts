import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';

/** Options of the commands that act on one subscription. */
export interface WebhookIdOptions {
  id: string;
}

/** `dp webhooks delete <id>`. */
export function newWebhooksDeleteCommand(
  f: Factory,
  run: Run<WebhookIdOptions> = runWebhooksDelete,
): Command {
  const command = new Command('delete')
    .description('Delete a subscription: its deliveries stop at once and its history is forgotten')
    .argument('<id>', 'the webhook id (`dp webhooks` lists them)')
    .action((id: string) => run(f, { id }));
  return withExamples(command, ['dp webhooks delete wh_01JD4X1Q3W4W7T2V1N0A5K9G2B']);
}

/** Prints `{ _id, deleted }` with --json and a confirmation on a terminal; exit status 4 for an unknown id. */
export async function runWebhooksDelete(f: Factory, { id }: WebhookIdOptions): Promise<void> {
  const client = await f.client();
  const answer = await attempt(`delete webhook "${id}"`, client.webhooks.delete(id));
  const out = await f.output();
  if (out.json) await out.writeJson(answer);
  out.success(`Deleted webhook ${answer._id}`);
}
