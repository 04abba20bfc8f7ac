import { Command, InvalidArgumentError, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { collect, type Run, wholeNumber, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';
import { clusterOf } from './datasets.js';

// The contract's lists; the CLI depends on the SDK alone.
const MODEL_TASKS = ['regression', 'classification', 'clustering'] as const;
const MODEL_ALGORITHMS = ['linear', 'logistic', 'random_forest', 'kmeans'] as const;

/** Options of `dp intelligence models train`. */
export interface ModelsTrainOptions {
  name: string;
  datasetId: string;
  task: (typeof MODEL_TASKS)[number];
  target?: string;
  features?: string[];
  algorithm?: (typeof MODEL_ALGORITHMS)[number];
  testFraction?: number;
  seed?: number;
}

function fraction(value: string): number {
  const n = Number(value);
  if (!(n >= 0.05 && n <= 0.5)) throw new InvalidArgumentError('expected a number from 0.05 to 0.5.');
  return n;
}

/** `dp intelligence models train <name> --dataset <id> --task <task>`. */
export function newModelsTrainCommand(f: Factory, run: Run<ModelsTrainOptions> = runModelsTrain): Command {
  const command = new Command('train')
    .description('Train a model on a dataset; metrics are measured on held-out rows')
    .argument('<name>', 'a name for the model')
    .requiredOption('-d, --dataset <id>', 'the dataset to train on')
    .addOption(new Option('-t, --task <task>', 'what to learn').choices(MODEL_TASKS).makeOptionMandatory())
    .option('--target <field>', 'the field to predict (regression, classification)')
    .option(
      '--feature <field>',
      'a field to learn from (repeatable); every other field when left out',
      collect,
    )
    .addOption(new Option('-a, --algorithm <algorithm>', 'the algorithm').choices(MODEL_ALGORITHMS))
    .option('--test-fraction <share>', 'held-out share of the rows (0.2)', fraction)
    .option('--seed <n>', 'the seed of the split and the algorithm (1)', wholeNumber(0, 2 ** 31 - 1))
    .action(
      (
        name: string,
        opts: Omit<ModelsTrainOptions, 'name' | 'datasetId' | 'features'> & {
          dataset: string;
          feature?: string[];
        },
      ) => {
        const { dataset, feature, ...rest } = opts;
        return run(f, { name, datasetId: dataset, features: feature, ...rest });
      },
    );
  return withExamples(command, [
    'dp intelligence models train species -d ds_… -t classification --target species',
    'dp intelligence models train price -d ds_… -t regression --target price -a random_forest --json',
  ]);
}

/** The model as JSON, or its status and metrics on a terminal. */
export async function runModelsTrain(f: Factory, options: ModelsTrainOptions): Promise<void> {
  const client = await sessionClient(f);
  const { seed, ...body } = options;
  const model = await attempt(
    `train model "${options.name}"`,
    client.intelligence.models.create({
      ...clusterOf(f),
      ...body,
      ...(seed === undefined ? {} : { params: { seed } }),
    }),
  );
  const out = await f.output();
  if (out.json || !out.tty) return void (await out.writeJson(model));
  const metrics = Object.entries(model.metrics)
    .map(([name, value]) => `${name} ${Number(value).toPrecision(4)}`)
    .join(', ');
  await out.write(
    `Model ${model._id} (${model.algorithm}) is ${model.status}${metrics ? `: ${metrics}` : ''}\n`,
  );
  if (model.failure) out.note(model.failure);
}

/** `dp intelligence models list`. */
export function newModelsListCommand(f: Factory, run: Run<Record<string, never>> = runModelsList): Command {
  const command = new Command('list').description('List the models of the cluster').action(() => run(f, {}));
  return withExamples(command, ['dp intelligence models', 'dp intelligence models list --json']);
}

/** A table on a terminal, one JSON model per line when piped, `{ data }` with --json. */
export async function runModelsList(f: Factory): Promise<void> {
  const client = await sessionClient(f);
  const answer = await attempt('list models', client.intelligence.models.list(clusterOf(f)));
  const out = await f.output();
  if (out.json) return void (await out.writeJson(answer));
  if (!out.tty) {
    for (const model of answer.data) await out.writeJsonLine(model);
    return;
  }
  await out.writeTable(
    ['id', 'name', 'status', 'task', 'algorithm', 'target'],
    answer.data.map((m) => [m._id, m.name, m.status, m.task, m.algorithm, m.target ?? '']),
  );
  if (answer.data.length === 0) out.note('No models yet');
}
