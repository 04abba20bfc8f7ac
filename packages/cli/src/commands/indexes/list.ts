import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { schemaClient } from '../schema/schema-client.js';

/** Options of `dp indexes list`. */
export interface IndexesListOptions {
  collection: string;
}

/** `dp indexes list <collection>`. */
export function newIndexesListCommand(f: Factory, run: Run<IndexesListOptions> = runIndexesList): Command {
  const command = new Command('list')
    .description("List a collection's indexes")
    .argument('<collection>', 'collection name')
    .action((collection: string) => run(f, { collection }));
  return withExamples(command, ['dp indexes list orders', 'dp indexes list orders --json']);
}

/** A table on a terminal, one JSON index per line when piped, `{ data }` with --json. */
export async function runIndexesList(f: Factory, { collection }: IndexesListOptions): Promise<void> {
  const { client, cluster } = await schemaClient(f);
  const answer = await attempt(
    `list the indexes of "${collection}"`,
    client.schema.indexes.list(collection, cluster),
  );
  const out = await f.output();
  if (out.json) return void (await out.writeJson(answer));
  if (!out.tty) {
    for (const index of answer.data) await out.writeJsonLine(index);
    return;
  }
  await out.writeTable(
    ['name', 'fields', 'unique', 'status'],
    answer.data.map((index) => [
      index.name,
      index.fields.map((field) => `${field.path} ${field.order}`).join(', '),
      index.unique ? 'yes' : 'no',
      index.status,
    ]),
  );
  if (answer.data.length === 0) out.note(`"${collection}" has no indexes`);
}
