import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';

/** Options of `dp data get`. */
export interface GetOptions {
  collection: string;
  id: string;
}

/** `dp data get <collection> <id>`. */
export function newGetCommand(f: Factory, run: Run<GetOptions> = runGet): Command {
  const command = new Command('get')
    .description('Print one document')
    .argument('<collection>', 'collection name')
    .argument('<id>', 'document id')
    .action((collection: string, id: string) => run(f, { collection, id }));
  return withExamples(command, [
    'dp data get orders 01JD3Z8Q1M',
    'dp data get orders 01JD3Z8Q1M | jq .total',
  ]);
}

/** Prints the document as JSON (the stored document, with `--json` or without). */
export async function runGet(f: Factory, { collection, id }: GetOptions): Promise<void> {
  const client = await f.client();
  const doc = await attempt(`get document "${id}" of "${collection}"`, client.data.get(collection, id));
  await (await f.output()).writeJson(doc);
}
