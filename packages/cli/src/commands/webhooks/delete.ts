import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { confirm } from '../../input/confirm.js';
import { type Run, withExamples } from '../command.js';

/** Options of the commands that act on one subscription. */
export interface WebhookIdOptions {
  id: string;
}

/** Options of `dp webhooks delete`. */
export interface WebhooksDeleteOptions extends WebhookIdOptions {
  /** `--yes`: delete without asking (needed when standard input is not a terminal). */
  yes?: boolean | undefined;
}

/** `dp webhooks delete <id>`. */
export function newWebhooksDeleteCommand(
  f: Factory,
  run: Run<WebhooksDeleteOptions> = runWebhooksDelete,
): Command {
  const command = new Command('delete')
    .description('Delete a subscription: its deliveries stop at once and its history is forgotten')
    .argument('<id>', 'the webhook id (`dp webhooks` lists them)')
    .option('-y, --yes', 'delete without asking; a script must pass it')
    .action((id: string, options: { yes?: boolean }) => run(f, { id, ...options }));
  return withExamples(command, [
    'dp webhooks delete wh_01JD4X1Q3W4W7T2V1N0A5K9G2B        # asks first on a terminal',
    'dp webhooks delete wh_01JD4X1Q3W4W7T2V1N0A5K9G2B --yes',
  ]);
}

/**
 * Asks first (or takes --yes); prints `{ _id, deleted }` with --json and a confirmation on a terminal; exit status
 * 4 for an unknown id.
 */
export async function runWebhooksDelete(f: Factory, { id, yes }: WebhooksDeleteOptions): Promise<void> {
  await confirm(f.io, { yes, action: `delete webhook "${id}"` });
  const client = await f.client();
  const answer = await attempt(`delete webhook "${id}"`, client.webhooks.delete(id));
  const out = await f.output();
  if (out.json) await out.writeJson(answer);
  out.success(`Deleted webhook ${answer._id}`);
}
