import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { schemaClient } from './schema-client.js';

/** Options of `dp schema get`. */
export interface SchemaGetOptions {
  collection: string;
}

/** `dp schema get <collection>`. */
export function newSchemaGetCommand(f: Factory, run: Run<SchemaGetOptions> = runSchemaGet): Command {
  const command = new Command('get')
    .description("Print a collection's validator: its JSON Schema, level and timestamps")
    .argument('<collection>', 'collection name')
    .action((collection: string) => run(f, { collection }));
  return withExamples(command, [
    'dp schema get orders',
    'dp schema get orders > orders.schema.json   # `dp schema set` takes it back',
  ]);
}

/** The validator as JSON (status 4 when the collection has none). */
export async function runSchemaGet(f: Factory, { collection }: SchemaGetOptions): Promise<void> {
  const { client, cluster } = await schemaClient(f);
  const validator = await attempt(
    `get the validator of "${collection}"`,
    client.schema.validator.get(collection, cluster),
  );
  await (await f.output()).writeJson(validator);
}
