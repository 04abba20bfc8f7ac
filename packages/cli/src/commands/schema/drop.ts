import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { confirm } from '../../input/confirm.js';
import { type Run, withExamples } from '../command.js';
import { writeJob } from '../jobs/show.js';
import { schemaClient } from './schema-client.js';

/** Options of `dp schema drop`. */
export interface SchemaDropOptions {
  collection: string;
  /** `--yes`: drop without asking (needed when standard input is not a terminal). */
  yes?: boolean | undefined;
}

/** `dp schema drop <collection>`. */
export function newSchemaDropCommand(f: Factory, run: Run<SchemaDropOptions> = runSchemaDrop): Command {
  const command = new Command('drop')
    .description('Drop a collection: every document, its validator and its indexes')
    .argument('<collection>', 'collection name')
    .option('-y, --yes', 'drop without asking; a script must pass it')
    .action((collection: string, options: { yes?: boolean }) => run(f, { collection, yes: options.yes }));
  return withExamples(command, [
    'dp schema drop scratch        # asks first on a terminal',
    'dp schema drop scratch --yes',
  ]);
}

/** Asks first (or takes --yes), then prints the `collection.drop` job. */
export async function runSchemaDrop(f: Factory, { collection, yes }: SchemaDropOptions): Promise<void> {
  await confirm(f.io, { yes, action: `drop collection "${collection}" and every document in it` });
  const { client, cluster } = await schemaClient(f);
  const job = await attempt(
    `drop collection "${collection}"`,
    client.schema.collections.drop(collection, cluster),
  );
  const out = await f.output();
  await writeJob(out, job);
  out.success(`Dropped "${collection}"`);
}
