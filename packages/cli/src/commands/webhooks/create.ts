import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { collectEvents, type EventName, writeWithSecret } from './show.js';

/** Options of `dp webhooks create`. */
export interface WebhooksCreateOptions {
  url: string;
  event?: EventName[] | undefined;
  collection?: string | undefined;
  secret?: string | undefined;
}

/** `dp webhooks create --url <url> [--event <type>]… [--collection <c>] [--secret <s>]`. */
export function newWebhooksCreateCommand(
  f: Factory,
  run: Run<WebhooksCreateOptions> = runWebhooksCreate,
): Command {
  const command = new Command('create')
    .description('Subscribe an address to document events; prints the signing secret, shown only now')
    .requiredOption('--url <url>', 'the absolute http(s) address deliveries are posted to')
    .option(
      '--event <type>',
      'document.created, document.updated, document.deleted or * (repeat or comma-separate; default *)',
      collectEvents,
    )
    .option('--collection <name>', 'only events of this collection (default: every collection)')
    .option('--secret <secret>', 'your own signing secret, 16 to 128 characters (default: one is made)')
    .action((options: WebhooksCreateOptions) => run(f, options));
  return withExamples(command, [
    'dp webhooks create --url https://example.com/hooks',
    'dp webhooks create --url https://example.com/hooks --event document.created --collection orders',
    'SECRET=$(dp webhooks create --url https://example.com/hooks --json | jq -r .secret)',
  ]);
}

export async function runWebhooksCreate(f: Factory, options: WebhooksCreateOptions): Promise<void> {
  const client = await f.client();
  const created = await attempt(
    `create a webhook for ${options.url}`,
    client.webhooks.create({
      url: options.url,
      events: options.event ?? ['*'],
      collection: options.collection,
      secret: options.secret,
    }),
  );
  await writeWithSecret(await f.output(), created, 'Created');
}
