import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { schemaClient } from '../schema/schema-client.js';

/** Options of `dp indexes drop`. */
export interface IndexesDropOptions {
  collection: string;
  name: string;
}

/** `dp indexes drop <collection> <name>`. */
export function newIndexesDropCommand(f: Factory, run: Run<IndexesDropOptions> = runIndexesDrop): Command {
  const command = new Command('drop')
    .description('Drop an index')
    .argument('<collection>', 'collection name')
    .argument('<name>', 'index name (`dp indexes list <collection>` shows them)')
    .action((collection: string, name: string) => run(f, { collection, name }));
  return withExamples(command, ['dp indexes drop users email_asc']);
}

/** Prints `{ _id, deleted: true }` with --json, a confirmation on a terminal. */
export async function runIndexesDrop(f: Factory, { collection, name }: IndexesDropOptions): Promise<void> {
  const { client, cluster } = await schemaClient(f);
  const answer = await attempt(
    `drop index "${name}" of "${collection}"`,
    client.schema.indexes.delete(collection, name, cluster),
  );
  const out = await f.output();
  if (out.json) await out.writeJson(answer);
  out.success(`Dropped index ${name} of "${collection}"`);
}
