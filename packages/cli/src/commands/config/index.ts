import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newConfigGetCommand } from './get.js';
import { newConfigListCommand } from './list.js';
import { newConfigSetCommand } from './set.js';
import { newConfigUnsetCommand } from './unset.js';

/** `dp config …`: the settings of a profile. */
export function newConfigCommand(f: Factory): Command {
  const command = new Command('config')
    .description('Read and write settings (base-url, api-key, token) of a profile')
    .addCommand(newConfigSetCommand(f))
    .addCommand(newConfigGetCommand(f))
    .addCommand(newConfigUnsetCommand(f))
    .addCommand(newConfigListCommand(f));
  return withExamples(command, [
    'dp config set base-url http://localhost:5000',
    'dp config set api-key svc_…',
    'dp config list',
  ]);
}
