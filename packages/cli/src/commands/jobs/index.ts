import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newJobsCancelCommand } from './cancel.js';
import { newJobsGetCommand } from './get.js';
import { newJobsListCommand } from './list.js';
import { newJobsWatchCommand } from './watch.js';

/** `dp jobs …`: background jobs such as imports. `dp jobs` alone lists them. */
export function newJobsCommand(f: Factory): Command {
  const command = new Command('jobs')
    .description('List, watch and cancel background jobs such as imports')
    .addCommand(newJobsListCommand(f), { isDefault: true })
    .addCommand(newJobsGetCommand(f))
    .addCommand(newJobsWatchCommand(f))
    .addCommand(newJobsCancelCommand(f));
  return withExamples(command, ['dp jobs', 'dp jobs watch job_01J…', 'dp jobs cancel job_01J…']);
}
