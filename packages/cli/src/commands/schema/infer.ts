import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, wholeNumber, withExamples } from '../command.js';
import { schemaClient } from './schema-client.js';

/** Options of `dp schema infer`. */
export interface SchemaInferOptions {
  collection: string;
  /** Documents to read, newest first; the server's default (100) when unset. */
  sample?: number | undefined;
}

/** `dp schema infer <collection> [--sample N]`. */
export function newSchemaInferCommand(f: Factory, run: Run<SchemaInferOptions> = runSchemaInfer): Command {
  const command = new Command('infer')
    .description("Propose a JSON Schema from a collection's newest documents, to start a validator from")
    .argument('<collection>', 'collection name')
    .option('--sample <n>', 'documents to read, newest first, 1 to 1000 (default 100)', wholeNumber(1, 1000))
    .action((collection: string, options: { sample?: number }) =>
      run(f, { collection, sample: options.sample }),
    );
  return withExamples(command, [
    'dp schema infer orders',
    'dp schema infer orders --sample 1000 > s.json && dp schema set orders s.json',
  ]);
}

/** Prints the proposed schema alone, so that it can be saved and set; --json prints `{ collection, sampled, schema }`. */
export async function runSchemaInfer(f: Factory, { collection, sample }: SchemaInferOptions): Promise<void> {
  const { client, cluster } = await schemaClient(f);
  const answer = await attempt(
    `infer a schema for "${collection}"`,
    client.schema.infer(collection, { ...cluster, sample }),
  );
  const out = await f.output();
  await out.writeJson(out.json ? answer : answer.schema);
  out.note(`From the newest ${answer.sampled} documents of "${collection}"`);
}
