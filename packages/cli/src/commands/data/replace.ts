import { Command } from 'commander';
import { attempt, UsageError } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { readJsonObject } from '../../input/source.js';
import { type Run, withExamples } from '../command.js';

/** Options of `dp data replace`. */
export interface ReplaceOptions {
  collection: string;
  id: string;
  document?: string | undefined;
  idempotencyKey?: string | undefined;
}

/** `dp data replace <collection> <id> [document]`. */
export function newReplaceCommand(f: Factory, run: Run<ReplaceOptions> = runReplace): Command {
  const command = new Command('replace')
    .description('Replace every field of a document (PUT); "_id" and "_createdAt" are kept')
    .argument('<collection>', 'collection name')
    .argument('<id>', 'document id')
    .argument('[document]', 'JSON object, @file, or - for standard input (the default when piped)')
    .option(
      '--idempotency-key <key>',
      'send this Idempotency-Key, so running the command again never writes twice',
    )
    .action(
      (collection: string, id: string, document: string | undefined, options: { idempotencyKey?: string }) =>
        run(f, { collection, id, document, ...options }),
    );
  return withExamples(command, [
    `dp data replace orders o-1 '{"customer":"ada","total":43}'`,
    'dp data get orders o-1 | jq ".total = 50" | dp data replace orders o-1',
  ]);
}

/** Prints the stored document as JSON. */
export async function runReplace(f: Factory, options: ReplaceOptions): Promise<void> {
  const { collection, id, idempotencyKey } = options;
  const body = await readJsonObject(f.io, options.document, 'document');
  const client = await f.client();
  const doc = await attempt(
    `replace document "${id}" of "${collection}"`,
    client.data.replace(collection, id, withoutSystemFields(body, id), { idempotencyKey }),
  );
  const out = await f.output();
  await out.writeJson(doc);
  out.success(`Replaced ${doc._id} in "${collection}"`);
}

/**
 * A document as `dp data get` printed it carries `_id`, `_createdAt` and `_updatedAt`, which the server refuses
 * in a body; dropping them lets `get | jq | replace` work. An `_id` that names another document is refused.
 */
function withoutSystemFields(body: Record<string, unknown>, id: string): Record<string, unknown> {
  const { _id, _createdAt, _updatedAt, ...fields } = body;
  if (_id !== undefined && _id !== id) {
    throw new UsageError(
      `the document's _id ${JSON.stringify(_id)} is not ${JSON.stringify(id)}, the id being replaced`,
      'remove "_id" from the document, or replace the document it names',
    );
  }
  return fields;
}
