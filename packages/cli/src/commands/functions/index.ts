import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newFunctionsDeployCommand } from './deploy.js';
import { newFunctionsInvokeCommand } from './invoke.js';
import { newFunctionsLogsCommand } from './logs.js';

/** `dp functions …`: deploy, run and watch serverless functions (session: `dp login`). */
export function newFunctionsCommand(f: Factory): Command {
  const command = new Command('functions')
    .description('Deploy, run and read the logs of serverless functions')
    .addCommand(newFunctionsDeployCommand(f))
    .addCommand(newFunctionsInvokeCommand(f))
    .addCommand(newFunctionsLogsCommand(f));
  return withExamples(command, [
    'dp functions deploy hello.js',
    'dp functions invoke fn_01J… \'{"a":1}\'',
    'dp functions logs fn_01J…',
  ]);
}
