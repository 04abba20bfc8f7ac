import type { TriggerSource } from '@dataplatform/sdk';
import { Command } from 'commander';
import { attempt, UsageError } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { collect, type Run, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';
import { writeTrigger } from './show.js';

/** Options of `dp triggers create`. */
export interface TriggersCreateOptions {
  name: string;
  functionId: string;
  cron?: string | undefined;
  timezone?: string | undefined;
  events?: string[] | undefined;
  collection?: string | undefined;
}

/** `dp triggers create --name <n> --function <id> (--cron <expr> | --event <type>…)`. */
export function newTriggersCreateCommand(
  f: Factory,
  run: Run<TriggersCreateOptions> = runTriggersCreate,
): Command {
  const command = new Command('create')
    .description('Run a function on a schedule or on document events')
    .requiredOption('--name <name>', "the trigger's name")
    .requiredOption('--function <id>', 'the function to run')
    .option('--cron <expression>', 'a schedule: 5 fields, or 6 with seconds first, or @hourly and the like')
    .option('--timezone <zone>', 'the time zone the schedule is read in (default UTC)')
    .option('--event <type>', 'a document event to run on (repeatable): document.created, …, or *', collect)
    .option('--collection <name>', 'only events of this collection')
    .action(
      (options: {
        name: string;
        function: string;
        cron?: string;
        timezone?: string;
        event?: string[];
        collection?: string;
      }) =>
        run(f, {
          name: options.name,
          functionId: options.function,
          cron: options.cron,
          timezone: options.timezone,
          events: options.event,
          collection: options.collection,
        }),
    );
  return withExamples(command, [
    "dp triggers create --name nightly --function fn_01J… --cron '0 3 * * *' --timezone Europe/Berlin",
    'dp triggers create --name on-order --function fn_01J… --event document.created --collection orders',
  ]);
}

export async function runTriggersCreate(f: Factory, options: TriggersCreateOptions): Promise<void> {
  const source = sourceOf(options);
  const client = await sessionClient(f);
  const trigger = await attempt(
    `create trigger "${options.name}"`,
    client.triggers.create({ name: options.name, source, target: { function: options.functionId } }),
  );
  const out = await f.output();
  await writeTrigger(out, trigger);
  out.success(`Created trigger ${trigger._id} (${trigger.name})`);
}

function sourceOf(options: TriggersCreateOptions): TriggerSource {
  if ((options.cron === undefined) === (options.events === undefined))
    throw new UsageError(
      'give either --cron or --event',
      'a trigger runs on a schedule or on document events',
    );
  if (options.cron !== undefined)
    return {
      type: 'schedule',
      cron: options.cron,
      ...(options.timezone ? { timezone: options.timezone } : {}),
    };
  return {
    type: 'document',
    events: options.events as Extract<TriggerSource, { type: 'document' }>['events'],
    ...(options.collection ? { collection: options.collection } : {}),
  };
}
