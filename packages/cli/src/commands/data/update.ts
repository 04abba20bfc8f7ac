import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { readJsonObject } from '../../input/source.js';
import { type Run, withExamples } from '../command.js';

/** Options of `dp data update`. */
export interface UpdateOptions {
  collection: string;
  id: string;
  /** The JSON Merge Patch: JSON text, `@file`, `-`, or undefined for standard input. */
  patch?: string | undefined;
  idempotencyKey?: string | undefined;
}

/** `dp data update <collection> <id> [patch]`. */
export function newUpdateCommand(f: Factory, run: Run<UpdateOptions> = runUpdate): Command {
  const command = new Command('update')
    .description('Change some fields of a document with a JSON Merge Patch: null removes a field')
    .argument('<collection>', 'collection name')
    .argument('<id>', 'document id')
    .argument('[patch]', 'JSON object, @file, or - for standard input (the default when piped)')
    .option(
      '--idempotency-key <key>',
      'send this Idempotency-Key, so running the command again never writes twice',
    )
    .action(
      (collection: string, id: string, patch: string | undefined, options: { idempotencyKey?: string }) =>
        run(f, { collection, id, patch, ...options }),
    );
  return withExamples(command, [
    `dp data update orders o-1 '{"status":"paid"}'`,
    `dp data update orders o-1 '{"shipping":{"city":"Oslo"},"note":null}'   # merge, and remove "note"`,
  ]);
}

/** Prints the stored document as JSON. */
export async function runUpdate(f: Factory, options: UpdateOptions): Promise<void> {
  const { collection, id, idempotencyKey } = options;
  const patch = await readJsonObject(f.io, options.patch, 'patch');
  const client = await f.client();
  const doc = await attempt(
    `update document "${id}" of "${collection}"`,
    client.data.update(collection, id, patch, { idempotencyKey }),
  );
  const out = await f.output();
  await out.writeJson(doc);
  out.success(`Updated ${doc._id} in "${collection}"`);
}
