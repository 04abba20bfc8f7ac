import type { StoredDocument } from '@dataplatform/sdk';
import { Command } from 'commander';
import { attempt, OperationError } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import type { Output } from '../../output/printer.js';
import { type Run, wholeNumber, withExamples } from '../command.js';
import { documentRows } from './rows.js';

/** Options of `dp data list`. */
export interface ListOptions {
  collection: string;
  limit?: number | undefined;
  skip?: number | undefined;
  sort?: string | undefined;
  all: boolean;
}

/** Page size of `--all` when --limit is not given: the largest the API allows, so the fewest requests. */
const ALL_PAGE_SIZE = 1000;

/** `dp data list <collection>`. */
export function newListCommand(f: Factory, run: Run<ListOptions> = runList): Command {
  const command = new Command('list')
    .description('List the documents of a collection, one page or --all')
    .argument('<collection>', 'collection name')
    .option('--limit <n>', 'documents per page, 1 to 1000 (server default 50)', wholeNumber(1, 1000))
    .option('--skip <n>', 'documents to skip before the first one', wholeNumber(0))
    .option('--sort <fields>', 'field or dotted path, "-" for descending, comma-separated: -total,_id')
    .option('--all', 'walk every page (with --limit as the page size, default 1000)', false)
    .action((collection: string, options: Omit<ListOptions, 'collection'>) =>
      run(f, { collection, ...options }),
    );
  return withExamples(command, [
    'dp data list orders',
    'dp data list orders --sort -total --limit 10',
    'dp data list orders --all --json > orders.json',
    'dp data list orders --all | jq -r .customer   # one JSON document per line when piped',
  ]);
}

/**
 * Prints one page (`--json`: the API's `{ data, total, limit, skip }`), or with --all every page as it arrives
 * (`--json`: `{ data, total }`, streamed so a large collection never sits in memory).
 */
export async function runList(f: Factory, options: ListOptions): Promise<void> {
  const client = await f.client();
  const out = await f.output();
  const { collection, skip, sort, all } = options;
  const limit = options.limit ?? (all ? ALL_PAGE_SIZE : undefined);
  const operation = `list documents of "${collection}"`;
  const first = await attempt(operation, client.data.list(collection, { limit, skip, sort }));

  if (!all) {
    if (out.json) {
      await out.writeJson({ data: first.data, total: first.total, limit: first.limit, skip: first.skip });
      return;
    }
    await printDocuments(out, first.data);
    const from = first.data.length > 0 ? first.skip + 1 : first.skip;
    out.note(`Showing ${from}–${first.skip + first.data.length} of ${first.total} in "${collection}"`);
    return;
  }

  const spinner = await f.spinner(`Listing "${collection}"…`);
  let count = 0;
  let total = first.total;
  const tableRows: StoredDocument[] = [];
  try {
    if (out.json) await out.write(`{"data":[`);
    for await (const page of withOperation(operation, first.iterPages())) {
      total = page.total;
      for (const doc of page.data) {
        if (out.json) await out.write(`${count === 0 ? '\n' : ',\n'}${JSON.stringify(doc)}`);
        else if (out.tty) tableRows.push(doc);
        else await out.writeJsonLine(doc);
        count++;
      }
      spinner.update(`Listing "${collection}": ${count} of ${total}`);
    }
    if (out.json) await out.write(`${count === 0 ? '' : '\n'}],"total":${total}}\n`);
  } finally {
    spinner.stop();
  }
  if (out.tty && !out.json) await printDocuments(out, tableRows);
  out.note(`${count} documents in "${collection}"`);
}

/** A table on a terminal; one compact JSON document per line otherwise. */
async function printDocuments(out: Output, docs: StoredDocument[]): Promise<void> {
  if (!out.tty) {
    for (const doc of docs) await out.writeJsonLine(doc);
    return;
  }
  if (docs.length === 0) return;
  const { header, rows } = documentRows(docs);
  await out.writeTable(header, rows);
}

/** The pages of a walk, with a failure on a later page named like one on the first. */
async function* withOperation<T>(operation: string, pages: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* pages;
  } catch (error) {
    throw new OperationError(operation, error);
  }
}
