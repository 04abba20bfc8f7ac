import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newWebhooksCreateCommand } from './create.js';
import { newWebhooksDeleteCommand } from './delete.js';
import {
  newWebhooksAttemptsCommand,
  newWebhooksDeliveriesCommand,
  newWebhooksResendCommand,
} from './deliveries.js';
import { newWebhooksListCommand } from './list.js';
import { newWebhooksListenCommand } from './listen.js';
import { newWebhooksRotateCommand } from './rotate.js';
import { newWebhooksTriggerCommand } from './trigger.js';

/** `dp webhooks …`: subscriptions to document events, their deliveries, and local forwarding. `dp webhooks` lists. */
export function newWebhooksCommand(f: Factory): Command {
  const command = new Command('webhooks')
    .description('Subscribe to document events, follow deliveries, and forward events to a local app')
    .addCommand(newWebhooksListCommand(f), { isDefault: true })
    .addCommand(newWebhooksCreateCommand(f))
    .addCommand(newWebhooksDeleteCommand(f))
    .addCommand(newWebhooksDeliveriesCommand(f))
    .addCommand(newWebhooksAttemptsCommand(f))
    .addCommand(newWebhooksResendCommand(f))
    .addCommand(newWebhooksRotateCommand(f))
    .addCommand(newWebhooksListenCommand(f))
    .addCommand(newWebhooksTriggerCommand(f));
  return withExamples(command, [
    'dp webhooks',
    'dp webhooks create --url https://example.com/hooks --event document.created',
    'dp webhooks listen --forward-to http://localhost:3000/webhooks',
    'dp webhooks trigger document.created --collection orders',
  ]);
}
