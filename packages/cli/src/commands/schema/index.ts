import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newSchemaCheckCommand } from './check.js';
import { newSchemaDropCommand } from './drop.js';
import { newSchemaGetCommand } from './get.js';
import { newSchemaInferCommand } from './infer.js';
import { newSchemaListCommand } from './list.js';
import { newSchemaRemoveCommand } from './remove.js';
import { newSchemaSetCommand } from './set.js';

/** `dp schema …`: collections and their validators. `dp schema` alone lists the collections. */
export function newSchemaCommand(f: Factory): Command {
  const command = new Command('schema')
    .description('List collections, set and check their validators, infer a schema, drop a collection')
    .addCommand(newSchemaListCommand(f), { isDefault: true })
    .addCommand(newSchemaGetCommand(f))
    .addCommand(newSchemaSetCommand(f))
    .addCommand(newSchemaRemoveCommand(f))
    .addCommand(newSchemaCheckCommand(f))
    .addCommand(newSchemaInferCommand(f))
    .addCommand(newSchemaDropCommand(f));
  return withExamples(command, [
    'dp schema',
    'dp schema infer orders > s.json && dp schema set orders s.json',
    'dp schema check orders --wait',
  ]);
}
