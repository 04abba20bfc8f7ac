import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { schemaClient } from './schema-client.js';

/** Options of `dp schema remove`. */
export interface SchemaRemoveOptions {
  collection: string;
}

/** `dp schema remove <collection>`. */
export function newSchemaRemoveCommand(f: Factory, run: Run<SchemaRemoveOptions> = runSchemaRemove): Command {
  const command = new Command('remove')
    .description("Remove a collection's validator: writes are no longer checked")
    .argument('<collection>', 'collection name')
    .action((collection: string) => run(f, { collection }));
  return withExamples(command, ['dp schema remove orders']);
}

/** Prints `{ collection, deleted: true }` with --json, a confirmation on a terminal. */
export async function runSchemaRemove(f: Factory, { collection }: SchemaRemoveOptions): Promise<void> {
  const { client, cluster } = await schemaClient(f);
  const answer = await attempt(
    `remove the validator of "${collection}"`,
    client.schema.validator.delete(collection, cluster),
  );
  const out = await f.output();
  if (out.json) await out.writeJson(answer);
  out.success(`Removed the validator of "${collection}"`);
}
