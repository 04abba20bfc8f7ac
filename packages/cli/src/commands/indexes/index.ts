import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newIndexesCreateCommand } from './create.js';
import { newIndexesDropCommand } from './drop.js';
import { newIndexesListCommand } from './list.js';

/** `dp indexes …`: the indexes of a collection. */
export function newIndexesCommand(f: Factory): Command {
  const command = new Command('indexes')
    .description("List, create and drop a collection's indexes")
    .addCommand(newIndexesListCommand(f))
    .addCommand(newIndexesCreateCommand(f))
    .addCommand(newIndexesDropCommand(f));
  return withExamples(command, [
    'dp indexes list orders',
    'dp indexes create users email --unique',
    'dp indexes drop users email_asc',
  ]);
}
