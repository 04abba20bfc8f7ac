import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { writeWithSecret } from './show.js';

/** Options of `dp webhooks rotate-secret`. */
export interface WebhooksRotateOptions {
  id: string;
  secret?: string | undefined;
}

/** `dp webhooks rotate-secret <id> [--secret <s>]`. */
export function newWebhooksRotateCommand(
  f: Factory,
  run: Run<WebhooksRotateOptions> = runWebhooksRotate,
): Command {
  const command = new Command('rotate-secret')
    .description(
      'Give a subscription a new signing secret (shown only now); the old one keeps signing for 24 hours',
    )
    .argument('<id>', 'the webhook id')
    .option('--secret <secret>', 'your own new secret, 16 to 128 characters (default: one is made)')
    .action((id: string, options: Omit<WebhooksRotateOptions, 'id'>) => run(f, { id, ...options }));
  return withExamples(command, [
    'dp webhooks rotate-secret wh_01JD4X…',
    'dp webhooks rotate-secret wh_01JD4X… --json | jq -r .secret',
  ]);
}

export async function runWebhooksRotate(f: Factory, options: WebhooksRotateOptions): Promise<void> {
  const client = await f.client();
  const rotated = await attempt(
    `rotate the secret of webhook "${options.id}"`,
    client.webhooks.rotateSecret(options.id, { secret: options.secret }),
  );
  const out = await f.output();
  await writeWithSecret(out, rotated, 'Rotated the secret of');
  out.note(`Deliveries are signed with the old secret too until ${rotated.previousSecretExpiresAt}`);
}
