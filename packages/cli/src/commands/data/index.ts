import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newDeleteCommand } from './delete.js';
import { newGetCommand } from './get.js';
import { newInsertCommand } from './insert.js';
import { newListCommand } from './list.js';
import { newReplaceCommand } from './replace.js';
import { newUpdateCommand } from './update.js';
import { newWatchCommand } from './watch.js';

/** `dp data …`: documents in collections (`/api/v1/data/{collection}`). */
export function newDataCommand(f: Factory): Command {
  const command = new Command('data')
    .description('List, read, write and watch documents in collections')
    .addCommand(newListCommand(f))
    .addCommand(newGetCommand(f))
    .addCommand(newInsertCommand(f))
    .addCommand(newReplaceCommand(f))
    .addCommand(newUpdateCommand(f))
    .addCommand(newDeleteCommand(f))
    .addCommand(newWatchCommand(f));
  return withExamples(command, [
    'dp data list orders --sort -total',
    `dp data insert orders '{"customer":"ada","total":42}'`,
    'dp data get orders o-1',
    'dp data watch orders',
  ]);
}
