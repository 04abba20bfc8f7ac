import { Command, InvalidArgumentError } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { failIfUnsuccessful, writeJob } from '../jobs/show.js';
import { schemaClient } from '../schema/schema-client.js';

/** One field of a new index. */
export interface IndexFieldOption {
  path: string;
  order: 'asc' | 'desc';
}

/** Options of `dp indexes create`. */
export interface IndexesCreateOptions {
  collection: string;
  fields: IndexFieldOption[];
  unique: boolean;
  /** The index's name; the server names it after its fields when unset. */
  name?: string | undefined;
}

/** Parses `path`, `path:asc` or `path:desc`, collecting them in order. */
export function indexField(value: string, previous: IndexFieldOption[] = []): IndexFieldOption[] {
  const match = /^([^:]+?)(?::(asc|desc))?$/.exec(value.trim());
  if (!match)
    throw new InvalidArgumentError(`expected a field path, optionally with :asc or :desc, not "${value}".`);
  return [...previous, { path: match[1]!, order: (match[2] ?? 'asc') as 'asc' | 'desc' }];
}

/** `dp indexes create <collection> <field[:desc]>...`. */
export function newIndexesCreateCommand(
  f: Factory,
  run: Run<IndexesCreateOptions> = runIndexesCreate,
): Command {
  const command = new Command('create')
    .description('Create an index of the storage engine over one or more fields; waits for the build')
    .argument('<collection>', 'collection name')
    .argument(
      '<fields...>',
      'dotted field paths in order, each optionally with :asc (default) or :desc',
      indexField,
    )
    .option('--unique', 'refuse a write that would give two documents the same values', false)
    .option('--name <name>', 'the index name (default: made from the fields, e.g. email_asc)')
    .action((collection: string, fields: IndexFieldOption[], options: { unique: boolean; name?: string }) =>
      run(f, { collection, fields, unique: options.unique, name: options.name }),
    );
  return withExamples(command, [
    'dp indexes create users email --unique',
    'dp indexes create orders customer total:desc --name by_customer',
  ]);
}

/** Prints the finished build job; a failed build (documents already sharing values) exits with status 1. */
export async function runIndexesCreate(f: Factory, options: IndexesCreateOptions): Promise<void> {
  const { collection, fields, unique, name } = options;
  const { client, cluster } = await schemaClient(f);
  const job = await attempt(
    `create an index of "${collection}"`,
    client.schema.indexes.create(collection, { fields, unique, ...(name ? { name } : {}) }, cluster),
  );
  const out = await f.output();
  await writeJob(out, job);
  failIfUnsuccessful(job);
  if ('name' in job.input) out.success(`Index ${job.input.name} of "${collection}" is ready`);
}
