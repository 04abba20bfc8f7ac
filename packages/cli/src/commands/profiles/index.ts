import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newProfilesListCommand } from './list.js';
import { newProfilesRemoveCommand } from './remove.js';
import { newProfilesUseCommand } from './use.js';

/** `dp profiles …`: named sets of settings, one per server or account. */
export function newProfilesCommand(f: Factory): Command {
  const command = new Command('profiles')
    .description('List, choose and remove profiles (one per server or account)')
    .addCommand(newProfilesListCommand(f))
    .addCommand(newProfilesUseCommand(f))
    .addCommand(newProfilesRemoveCommand(f));
  return withExamples(command, [
    'dp config set base-url https://staging.example.com --profile staging',
    'dp profiles use staging',
    'dp profiles list',
  ]);
}
