import type { WebhookDeliveryRecord, WebhookEventType } from '@dataplatform/sdk';
import { Argument, Command } from 'commander';
import { attempt, CliError } from '../../errors/cli-error.js';
import { ExitCode } from '../../errors/exit-codes.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { DELIVERY_HEADER, deliveryRow, EVENT_TYPES, wants } from './show.js';

/** Options of `dp webhooks trigger`. */
export interface WebhooksTriggerOptions {
  event: WebhookEventType;
  collection?: string | undefined;
  webhook?: string | undefined;
}

/** `dp webhooks trigger <event> [--collection <c>] [--webhook <id>]`. */
export function newWebhooksTriggerCommand(
  f: Factory,
  run: Run<WebhooksTriggerOptions> = runWebhooksTrigger,
): Command {
  const command = new Command('trigger')
    .description('Send a signed test event to one subscription, or to every subscription that wants it')
    .addArgument(new Argument('<event>', 'the event type').choices(EVENT_TYPES))
    .option('--collection <name>', 'the collection the test event names')
    .option('--webhook <id>', 'only this subscription (default: every one that wants the event)')
    .action((event: WebhookEventType, options: Omit<WebhooksTriggerOptions, 'event'>) =>
      run(f, { event, ...options }),
    );
  return withExamples(command, [
    'dp webhooks trigger document.created --collection orders',
    'dp webhooks trigger document.deleted --webhook wh_01JD4X…',
  ]);
}

/**
 * Asks the server to send the test event and prints the deliveries it made (`{ data }` with --json). Without
 * --webhook it goes to each active subscription whose events and collection take it; none is exit status 4.
 */
export async function runWebhooksTrigger(f: Factory, options: WebhooksTriggerOptions): Promise<void> {
  const client = await f.client();
  const { event, collection, webhook } = options;
  const what = `${event}${collection ? ` in "${collection}"` : ''}`;
  const targets = webhook
    ? [{ _id: webhook, collection: null }]
    : (await attempt('list webhooks', client.webhooks.list())).data.filter((w) =>
        wants(w, event, collection),
      );
  if (targets.length === 0) {
    throw new CliError(`no webhook wants ${what}`, {
      exitCode: ExitCode.notFound,
      hint: `\`dp webhooks\` lists the subscriptions; \`dp webhooks create --url … --event ${event}\` adds one`,
    });
  }
  const sent: WebhookDeliveryRecord[] = [];
  for (const target of targets) {
    sent.push(
      await attempt(
        `send a test ${event} event to webhook "${target._id}"`,
        client.webhooks.test(target._id, {
          type: event,
          collection: collection ?? target.collection ?? undefined,
        }),
      ),
    );
  }
  const out = await f.output();
  if (out.json) return void (await out.writeJson({ data: sent }));
  if (!out.tty) {
    for (const delivery of sent) await out.writeJsonLine(delivery);
    return;
  }
  await out.writeTable(DELIVERY_HEADER, sent.map(deliveryRow));
  out.success(
    `Sent a test ${event} event to ${sent.length === 1 ? 'webhook' : `${sent.length} webhooks:`} ${sent.map((d) => d.webhookId).join(', ')}`,
  );
}
