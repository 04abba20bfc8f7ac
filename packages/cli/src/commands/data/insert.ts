import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { readJsonObject } from '../../input/source.js';
import { type Run, withExamples } from '../command.js';

/** Options of `dp data insert`. */
export interface InsertOptions {
  collection: string;
  /** The document: JSON text, `@file`, `-`, or undefined for standard input. */
  document?: string | undefined;
  idempotencyKey?: string | undefined;
}

/** `dp data insert <collection> [document]`. */
export function newInsertCommand(f: Factory, run: Run<InsertOptions> = runInsert): Command {
  const command = new Command('insert')
    .description('Store a new document (an "_id" field in it is kept; otherwise the server makes one)')
    .argument('<collection>', 'collection name')
    .argument('[document]', 'JSON object, @file, or - for standard input (the default when piped)')
    .option(
      '--idempotency-key <key>',
      'send this Idempotency-Key, so running the command again never writes twice',
    )
    .action((collection: string, document: string | undefined, options: { idempotencyKey?: string }) =>
      run(f, { collection, document, ...options }),
    );
  return withExamples(command, [
    `dp data insert orders '{"customer":"ada","total":42}'`,
    'dp data insert orders @order.json',
    `echo '{"_id":"o-1","total":7}' | dp data insert orders`,
  ]);
}

/** Prints the stored document as JSON. */
export async function runInsert(f: Factory, options: InsertOptions): Promise<void> {
  const { collection, idempotencyKey } = options;
  const body = await readJsonObject(f.io, options.document, 'document');
  const client = await f.client();
  const doc = await attempt(
    `insert a document into "${collection}"`,
    client.data.create(collection, body, { idempotencyKey }),
  );
  const out = await f.output();
  await out.writeJson(doc);
  out.success(`Inserted ${doc._id} into "${collection}"`);
}
