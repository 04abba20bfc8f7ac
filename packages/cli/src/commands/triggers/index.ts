import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newTriggerActionCommand } from './action.js';
import { newTriggersCreateCommand } from './create.js';
import { newTriggersListCommand } from './list.js';

/** `dp triggers …`: run functions on schedules and document events. `dp triggers` alone lists them. */
export function newTriggersCommand(f: Factory): Command {
  const command = new Command('triggers')
    .description('Create, list, pause, resume, run and delete triggers')
    .addCommand(newTriggersListCommand(f), { isDefault: true })
    .addCommand(newTriggersCreateCommand(f))
    .addCommand(newTriggerActionCommand('get', f))
    .addCommand(newTriggerActionCommand('pause', f))
    .addCommand(newTriggerActionCommand('resume', f))
    .addCommand(newTriggerActionCommand('run', f))
    .addCommand(newTriggerActionCommand('runs', f))
    .addCommand(newTriggerActionCommand('delete', f));
  return withExamples(command, [
    'dp triggers',
    "dp triggers create --name nightly --function fn_01J… --cron '0 3 * * *'",
    'dp triggers run trg_01J…',
  ]);
}
