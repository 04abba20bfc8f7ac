import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { formatCount } from '../../output/units.js';
import { collect, type Run, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';

/** Options of `dp intelligence datasets create`. */
export interface DatasetsCreateOptions {
  name: string;
  collection: string;
  sql?: string;
  fields?: string[];
}

/** The cluster the global `--cluster` names, as `clusterId`. */
export const clusterOf = (f: Factory) => (f.flags.cluster ? { clusterId: f.flags.cluster } : {});

/** `dp intelligence datasets create <name> --collection <c>`. */
export function newDatasetsCreateCommand(
  f: Factory,
  run: Run<DatasetsCreateOptions> = runDatasetsCreate,
): Command {
  const command = new Command('create')
    .description("Snapshot a collection's rows into a dataset, with field types and statistics")
    .argument('<name>', 'a name for the dataset')
    .requiredOption('-c, --collection <collection>', 'the collection to copy')
    .option('--sql <statement>', 'a SQL helper statement choosing the rows')
    .option('--field <name>', 'a field to keep (repeatable); every field when left out', collect)
    .action((name: string, opts: { collection: string; sql?: string; field?: string[] }) =>
      run(f, { name, collection: opts.collection, sql: opts.sql, fields: opts.field }),
    );
  return withExamples(command, [
    'dp intelligence datasets create iris -c iris',
    `dp intelligence datasets create big -c iris --sql "SELECT * FROM iris WHERE petal_length > 2"`,
  ]);
}

/** The dataset as JSON, or a line and its fields on a terminal. */
export async function runDatasetsCreate(f: Factory, options: DatasetsCreateOptions): Promise<void> {
  const client = await sessionClient(f);
  const dataset = await attempt(
    `make a dataset of "${options.collection}"`,
    client.intelligence.datasets.create({ ...clusterOf(f), ...options }),
  );
  const out = await f.output();
  if (out.json || !out.tty) return void (await out.writeJson(dataset));
  await out.write(`Dataset ${dataset._id} is ${dataset.status}: ${formatCount(dataset.rowCount)} rows\n`);
  if (dataset.failure) out.note(dataset.failure);
  await out.writeTable(
    ['field', 'type', 'missing', 'summary'],
    dataset.fields.map((field) => [
      field.name,
      field.type,
      formatCount(field.missing),
      field.type === 'number'
        ? `${field.min} … ${field.max}, mean ${field.mean?.toPrecision(4)}`
        : `${field.distinct} values`,
    ]),
  );
}

/** `dp intelligence datasets list`. */
export function newDatasetsListCommand(
  f: Factory,
  run: Run<Record<string, never>> = runDatasetsList,
): Command {
  const command = new Command('list')
    .description('List the datasets of the cluster')
    .action(() => run(f, {}));
  return withExamples(command, ['dp intelligence datasets', 'dp intelligence datasets list --json']);
}

/** A table on a terminal, one JSON dataset per line when piped, `{ data }` with --json. */
export async function runDatasetsList(f: Factory): Promise<void> {
  const client = await sessionClient(f);
  const answer = await attempt('list datasets', client.intelligence.datasets.list(clusterOf(f)));
  const out = await f.output();
  if (out.json) return void (await out.writeJson(answer));
  if (!out.tty) {
    for (const dataset of answer.data) await out.writeJsonLine(dataset);
    return;
  }
  await out.writeTable(
    ['id', 'name', 'status', 'rows', 'created'],
    answer.data.map((d) => [d._id, d.name, d.status, formatCount(d.rowCount), d.createdAt]),
  );
  if (answer.data.length === 0) out.note('No datasets yet');
}
