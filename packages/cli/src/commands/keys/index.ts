import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newKeyActionCommand } from './change.js';
import { newKeysCreateCommand } from './create.js';
import { newKeysListCommand } from './list.js';
import { newKeysUsageCommand } from './usage.js';

/** `dp keys …`: the signed-in user's API keys. `dp keys` alone lists them. */
export function newKeysCommand(f: Factory): Command {
  const command = new Command('keys')
    .description('Create, list, pause, resume, rotate and delete your API keys, and read their usage')
    .addCommand(newKeysListCommand(f), { isDefault: true })
    .addCommand(newKeysCreateCommand(f))
    .addCommand(newKeyActionCommand('pause', f))
    .addCommand(newKeyActionCommand('resume', f))
    .addCommand(newKeyActionCommand('rotate', f))
    .addCommand(newKeyActionCommand('delete', f))
    .addCommand(newKeysUsageCommand(f));
  return withExamples(command, [
    'dp keys',
    'dp keys create --name CI --scope data:read --expires 90d',
    'dp keys rotate 3fKq9ZxW2bLmN8pR',
  ]);
}
