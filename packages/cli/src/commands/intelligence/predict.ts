import { Command } from 'commander';
import { attempt, UsageError } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { readJsonObject } from '../../input/source.js';
import { type Run, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';

/** Options of `dp intelligence predict`. */
export interface PredictOptions {
  modelId: string;
  /** `{ "rows": [...] }` or one row, as an argument, `@file` or `-` (standard input). */
  rows?: string;
}

/** `dp intelligence predict <model> [rows]`. */
export function newPredictCommand(f: Factory, run: Run<PredictOptions> = runPredict): Command {
  const command = new Command('predict')
    .description('Predict rows with a model: one row object, or { "rows": [...] }')
    .argument('<model>', 'the model id')
    .argument('[rows]', 'JSON, @file or - for standard input (the default)')
    .action((modelId: string, rows: string | undefined) => run(f, { modelId, rows }));
  return withExamples(command, [
    `dp intelligence predict mdl_… '{"petal_length": 1.4, "petal_width": 0.2}'`,
    'dp intelligence predict mdl_… @rows.json --json',
  ]);
}

/** The predictions as JSON (`{ predictions, probabilities? }`), or one per line on a terminal. */
export async function runPredict(f: Factory, options: PredictOptions): Promise<void> {
  const input = await readJsonObject(f.io, options.rows, 'rows');
  const rows = Array.isArray(input.rows) ? (input.rows as Record<string, unknown>[]) : [input];
  if (rows.length === 0) throw new UsageError('there are no rows to predict');
  const client = await sessionClient(f);
  const answer = await attempt(
    `predict with model "${options.modelId}"`,
    client.intelligence.models.predict(options.modelId, { rows }),
  );
  const out = await f.output();
  if (out.json || !out.tty) return void (await out.writeJson(answer));
  for (const prediction of answer.predictions) await out.write(`${JSON.stringify(prediction)}\n`);
}
