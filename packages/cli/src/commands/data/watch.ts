import type { ChangeEvent } from '@dataplatform/sdk';
import { Command, InvalidArgumentError } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { onInterrupt } from '../interrupt.js';

/** Options of `dp data watch`. */
export interface WatchOptions {
  collection: string;
  where?: string;
  params?: (string | number | boolean | null)[];
  since?: string;
}

/** `dp data watch <collection> [--where …] [--params …] [--since …]`. */
export function newWatchCommand(
  f: Factory,
  run: (f: Factory, options: WatchOptions, stop?: AbortSignal) => Promise<void> = runWatch,
): Command {
  const command = new Command('watch')
    .description("Follow a collection's changes as they are written, until Ctrl-C")
    .argument('<collection>', 'collection name')
    .option('--where <condition>', "only documents that match (the SQL helper's condition grammar)")
    .option('--params <json>', 'values of the ? placeholders of --where, as a JSON array', jsonParams)
    .option('--since <event-id>', 'start after this event (an id printed before) instead of now')
    .action((collection: string, options: Omit<WatchOptions, 'collection'>) =>
      run(f, { collection, ...options }),
    );
  return withExamples(command, [
    'dp data watch orders',
    `dp data watch orders --where "status = ? AND total > 100" --params '["paid"]'`,
    'dp data watch orders | jq -c .data',
  ]);
}

function jsonParams(value: string): WatchOptions['params'] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('expected a JSON array, e.g. \'["paid", 100]\'.');
  }
  const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if (!Array.isArray(parsed) || !parsed.every(scalar))
    throw new InvalidArgumentError('expected a JSON array of strings, numbers, booleans or nulls.');
  return parsed;
}

/**
 * Prints each change of the collection as it is written (a line on a terminal, the event as a JSON line
 * otherwise), until Ctrl-C, SIGTERM or `stop`. A dropped connection is opened again and resumes after the last
 * event printed, so none is missed or printed twice; what the session does goes to standard error.
 */
export async function runWatch(f: Factory, options: WatchOptions, stop?: AbortSignal): Promise<void> {
  const client = await f.client();
  const out = await f.output();
  const interrupt = stop ? undefined : onInterrupt();
  const signal = stop ?? interrupt!.signal;
  const status = (kind: string, text: string, data: Record<string, unknown> = {}) => {
    f.io.stderr.write(f.flags.json ? `${JSON.stringify({ status: kind, ...data })}\n` : `${text}\n`);
  };
  const changes = client.data.subscribe(options.collection, {
    where: options.where,
    params: options.params,
    since: options.since,
    signal,
    onOpen(again) {
      if (again) return status('reconnected', out.errStyle.green('Reconnected'));
      status('ready', `${out.errStyle.green('Ready!')} Watching ${options.collection} (Ctrl-C to stop)`, {
        collection: options.collection,
      });
    },
    onDrop(reason, delayMs) {
      status(
        'dropped',
        out.errStyle.yellow(`Connection lost (${reason}); retrying in ${Math.round(delayMs)} ms`),
        {
          reason,
          delayMs,
        },
      );
    },
  });
  try {
    await attempt(`watch the changes of "${options.collection}"`, async () => {
      try {
        for await (const change of changes) await print(out, change);
      } catch (error) {
        if (!signal.aborted) throw error;
      }
    });
  } finally {
    interrupt?.dispose();
  }
}

const VERBS = { 'document.created': 'created', 'document.updated': 'updated', 'document.deleted': 'deleted' };

async function print(
  out: Awaited<ReturnType<Factory['output']>>,
  change: ChangeEvent<object>,
): Promise<void> {
  if (!out.tty || out.json) return void (await out.writeJsonLine(change));
  const { green, yellow, red, dim } = out.style;
  const verb = VERBS[change.type] ?? change.type;
  const colour = verb === 'created' ? green : verb === 'deleted' ? red : yellow;
  const clock = new Date(change.createdAt).toTimeString().slice(0, 8);
  const { _id, _createdAt, _updatedAt, ...fields } = change.data as Record<string, unknown>;
  await out.write(
    `${dim(clock)}  ${colour(verb.padEnd(7))}  ${change.documentId}  ${dim(JSON.stringify(fields))}\n`,
  );
}
