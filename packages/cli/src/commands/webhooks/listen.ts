import { Command, InvalidArgumentError, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { parseHttpAddress } from '../../input/http-address.js';
import { type Run, withExamples } from '../command.js';
import { onInterrupt } from '../interrupt.js';
import { collectEvents, type EventName } from './show.js';

/** Options of `dp webhooks listen`. */
export interface WebhooksListenOptions {
  forwardTo: string;
  webhook?: string | undefined;
  events?: EventName[] | undefined;
  collection?: string | undefined;
}

function httpAddress(value: string): string {
  if (!parseHttpAddress(value)) {
    throw new InvalidArgumentError(
      'expected an absolute http(s) address such as http://localhost:3000/webhooks.',
    );
  }
  return value;
}

/** `dp webhooks listen --forward-to <url> [--webhook <id> | --events … --collection …]`. */
export function newWebhooksListenCommand(
  f: Factory,
  run: Run<WebhooksListenOptions> = (factory, options) => runWebhooksListen(factory, options),
): Command {
  const command = new Command('listen')
    .description(
      'Stream events from the server and post them, signed, to a local receiver, printing each attempt (Ctrl-C stops)',
    )
    .requiredOption('--forward-to <url>', 'the local address to post each event to', httpAddress)
    .addOption(
      new Option(
        '--webhook <id>',
        'follow this subscription (default: a new one for this session)',
      ).conflicts(['events', 'collection']),
    )
    .option('--events <types>', "the session's event types, comma-separated (default *)", collectEvents)
    .option('--collection <name>', "only this collection's events (default: every collection)")
    .action((options: WebhooksListenOptions) => run(f, options));
  return withExamples(command, [
    'dp webhooks listen --forward-to http://localhost:3000/webhooks',
    'dp webhooks listen --forward-to http://localhost:3000/webhooks --events document.created --collection orders',
    'dp webhooks listen --forward-to http://localhost:3000/webhooks --webhook wh_01JD4X…',
  ]);
}

/**
 * Follows the subscription's event stream and forwards each event, until Ctrl-C (or SIGTERM), or `stop` in
 * tests. Without --webhook a subscription is made for the session, its secret printed for the receiver to
 * verify with, and deleted at the end. Each attempt is a line on standard output (text on a terminal, JSON
 * otherwise); what the session does goes to standard error (JSON lines with --json).
 */
export async function runWebhooksListen(
  f: Factory,
  options: WebhooksListenOptions,
  stop?: AbortSignal,
): Promise<void> {
  const client = await f.client();
  const out = await f.output();
  const { followStream, forwardEvent } = await import('./forward.js');
  const interrupt = stop ? undefined : onInterrupt();
  const signal = stop ?? interrupt!.signal;
  const status = (kind: string, text: string, data: Record<string, unknown> = {}) => {
    f.io.stderr.write(f.flags.json ? `${JSON.stringify({ status: kind, ...data })}\n` : `${text}\n`);
  };
  const session = options.webhook
    ? undefined
    : await attempt(
        `create a webhook for this session`,
        // Stream-only: the server never posts to it, so its url records where this session forwards, and a
        // subscription left behind by a crash costs nothing until `dp webhooks delete` removes it.
        client.webhooks.create({
          url: options.forwardTo,
          delivery: 'stream',
          events: options.events ?? ['*'],
          collection: options.collection,
        }),
      );
  const webhookId = options.webhook ?? session!._id;
  try {
    await attempt(`follow the events of webhook "${webhookId}"`, () =>
      followStream(client, webhookId, signal, {
        onOpen(again, lastEventId) {
          if (again) {
            const after = lastEventId ? `; resuming after ${lastEventId}` : '';
            return status('reconnected', `${out.errStyle.green('Reconnected')}${after}`, { lastEventId });
          }
          status(
            'ready',
            `${out.errStyle.green('Ready!')} Forwarding the events of webhook ${webhookId} to ${options.forwardTo} (Ctrl-C to stop)`,
            { webhookId, forwardTo: options.forwardTo, ...(session ? { secret: session.secret } : {}) },
          );
          if (session && !f.flags.json) {
            status(
              'secret',
              `Signing secret of this session: ${out.errStyle.bold(session.secret)}\n${out.errStyle.dim('(verify deliveries with it; the webhook is deleted when you stop)')}`,
            );
          }
        },
        async onEvent(event) {
          const result = await forwardEvent(options.forwardTo, event, signal);
          if (!out.tty || out.json) return void (await out.writeJsonLine(result));
          const { green, red, dim } = out.style;
          const ok = result.status !== null && result.status >= 200 && result.status < 300;
          const answer =
            result.status === null
              ? red(`error: ${result.error}`)
              : (ok ? green : red)(String(result.status));
          const clock = new Date(result.time).toTimeString().slice(0, 8);
          await out.write(
            `${dim(clock)}  ${result.type}  ${result.eventId}  → ${answer} ${dim(`(${result.durationMs} ms)`)}\n`,
          );
        },
        onDrop(reason, delayMs) {
          status(
            'reconnecting',
            `${out.errStyle.yellow('Connection lost')} (${reason}); reconnecting in ${delayMs / 1000} s`,
            { reason, delayMs },
          );
        },
      }),
    );
  } finally {
    interrupt?.dispose();
    if (session) {
      await attempt(
        `delete the session's webhook "${session._id}" (delete it with \`dp webhooks delete ${session._id}\`)`,
        client.webhooks.delete(session._id),
      );
    }
  }
  status('stopped', session ? `Stopped; deleted the session's webhook ${session._id}` : 'Stopped', {
    webhookId,
  });
}
