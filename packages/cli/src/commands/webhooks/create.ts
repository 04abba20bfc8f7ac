import { Command, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { collectEvents, DELIVERY_MODES, type EventName, writeWithSecret } from './show.js';

/** Options of `dp webhooks create`. */
export interface WebhooksCreateOptions {
  url: string;
  event?: EventName[] | undefined;
  collection?: string | undefined;
  secret?: string | undefined;
  delivery?: (typeof DELIVERY_MODES)[number] | undefined;
}

/** `dp webhooks create --url <url> [--event <type>]… [--collection <c>] [--secret <s>] [--delivery http|stream]`. */
export function newWebhooksCreateCommand(
  f: Factory,
  run: Run<WebhooksCreateOptions> = runWebhooksCreate,
): Command {
  const command = new Command('create')
    .description('Subscribe an address to document events; prints the signing secret, shown only now')
    .requiredOption(
      '--url <url>',
      'the absolute http(s) address deliveries are posted to (with --delivery stream: only recorded)',
    )
    .option(
      '--event <type>',
      'document.created, document.updated, document.deleted or * (repeat or comma-separate; default *)',
      collectEvents,
    )
    .option('--collection <name>', 'only events of this collection (default: every collection)')
    .option('--secret <secret>', 'your own signing secret, 16 to 128 characters (default: one is made)')
    .addOption(
      new Option(
        '--delivery <mode>',
        'http: the server posts each event to --url; stream: only on the event stream, for `dp webhooks listen --webhook` (default http)',
      ).choices(DELIVERY_MODES),
    )
    .action((options: WebhooksCreateOptions) => run(f, options));
  return withExamples(command, [
    'dp webhooks create --url https://example.com/hooks',
    'dp webhooks create --url https://example.com/hooks --event document.created --collection orders',
    'dp webhooks create --url http://localhost:3000/hooks --delivery stream',
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
      delivery: options.delivery,
    }),
  );
  await writeWithSecret(await f.output(), created, 'Created');
}
