import { Command, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, wholeNumber, withExamples } from '../command.js';
import { ATTEMPT_HEADER, attemptRow, DELIVERY_HEADER, deliveryRow, writeDelivery } from './show.js';

/** Options of `dp webhooks deliveries`. */
export interface WebhooksDeliveriesOptions {
  id: string;
  status?: 'pending' | 'succeeded' | 'failed' | 'streamed' | undefined;
  limit?: number | undefined;
  skip?: number | undefined;
}

/** Options of `dp webhooks attempts` and `dp webhooks resend`. */
export interface DeliveryIdOptions {
  id: string;
  deliveryId: string;
}

/** `dp webhooks deliveries <id> [--status …] [--limit n] [--skip n]`. */
export function newWebhooksDeliveriesCommand(
  f: Factory,
  run: Run<WebhooksDeliveriesOptions> = runWebhooksDeliveries,
): Command {
  const command = new Command('deliveries')
    .description("List a subscription's deliveries, newest first: where each event stands")
    .argument('<id>', 'the webhook id')
    .addOption(
      new Option('--status <status>', 'only deliveries in this state').choices([
        'pending',
        'succeeded',
        'failed',
        'streamed',
      ]),
    )
    .option('--limit <n>', 'deliveries to show, 1 to 1000 (default 50)', wholeNumber(1, 1000))
    .option('--skip <n>', 'deliveries to skip', wholeNumber(0))
    .action((id: string, options: Omit<WebhooksDeliveriesOptions, 'id'>) => run(f, { id, ...options }));
  return withExamples(command, [
    'dp webhooks deliveries wh_01JD4X… --status failed',
    'dp webhooks deliveries wh_01JD4X… --limit 200 --json | jq ".data[].lastError"',
  ]);
}

/** A table on a terminal, one JSON delivery per line when piped, the API's page with --json. */
export async function runWebhooksDeliveries(f: Factory, options: WebhooksDeliveriesOptions): Promise<void> {
  const client = await f.client();
  const { id, status, limit, skip } = options;
  const page = await attempt(
    `list the deliveries of webhook "${id}"`,
    client.webhooks.deliveries(id, { status, limit, skip }),
  );
  const out = await f.output();
  if (out.json) return void (await out.writeJson({ data: page.data, total: page.total }));
  if (!out.tty) {
    for (const delivery of page.data) await out.writeJsonLine(delivery);
    return;
  }
  await out.writeTable(DELIVERY_HEADER, page.data.map(deliveryRow));
  out.note(`Showing ${page.data.length} of ${page.total} deliveries`);
}

/** `dp webhooks attempts <id> <deliveryId>`. */
export function newWebhooksAttemptsCommand(
  f: Factory,
  run: Run<DeliveryIdOptions> = runWebhooksAttempts,
): Command {
  const command = new Command('attempts')
    .description("List a delivery's attempts, first to last: answer, duration, error and next retry")
    .argument('<id>', 'the webhook id')
    .argument('<deliveryId>', 'the delivery id (`dp webhooks deliveries <id>` lists them)')
    .action((id: string, deliveryId: string) => run(f, { id, deliveryId }));
  return withExamples(command, ['dp webhooks attempts wh_01JD4X… dlv_01JD4Y…']);
}

/** A table on a terminal, one JSON attempt per line when piped, `{ data }` with --json. */
export async function runWebhooksAttempts(f: Factory, { id, deliveryId }: DeliveryIdOptions): Promise<void> {
  const client = await f.client();
  const list = await attempt(
    `list the attempts of delivery "${deliveryId}" of webhook "${id}"`,
    client.webhooks.attempts(id, deliveryId),
  );
  const out = await f.output();
  if (out.json) return void (await out.writeJson(list));
  if (!out.tty) {
    for (const entry of list.data) await out.writeJsonLine(entry);
    return;
  }
  await out.writeTable(ATTEMPT_HEADER, list.data.map(attemptRow));
  if (list.data.length === 0) out.note('No attempt yet: the first one is on its way');
}

/** `dp webhooks resend <id> <deliveryId>`. */
export function newWebhooksResendCommand(
  f: Factory,
  run: Run<DeliveryIdOptions> = runWebhooksResend,
): Command {
  const command = new Command('resend')
    .description('Send a delivery again now, with the same event id and body')
    .argument('<id>', 'the webhook id')
    .argument('<deliveryId>', 'the delivery id')
    .action((id: string, deliveryId: string) => run(f, { id, deliveryId }));
  return withExamples(command, ['dp webhooks resend wh_01JD4X… dlv_01JD4Y…']);
}

export async function runWebhooksResend(f: Factory, { id, deliveryId }: DeliveryIdOptions): Promise<void> {
  const client = await f.client();
  const delivery = await attempt(
    `re-send delivery "${deliveryId}" of webhook "${id}"`,
    client.webhooks.resend(id, deliveryId),
  );
  const out = await f.output();
  await writeDelivery(out, delivery);
  out.success(
    `Delivery ${delivery._id} is due now; \`dp webhooks attempts ${id} ${delivery._id}\` shows how it went`,
  );
}
