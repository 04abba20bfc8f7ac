import type { Job } from '@dataplatform/sdk';
import { Command } from 'commander';
import { attempt, CliError } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { formatCount } from '../../output/units.js';
import { type Run, wholeNumber, withExamples } from '../command.js';
import { failIfUnsuccessful, writeJob } from '../jobs/show.js';
import { schemaClient } from './schema-client.js';

/** Options of `dp schema check`. */
export interface SchemaCheckOptions {
  collection: string;
  /** Wait for the job to finish and print what it found. */
  wait: boolean;
  interval: number;
}

/** `dp schema check <collection> [--wait]`. */
export function newSchemaCheckCommand(f: Factory, run: Run<SchemaCheckOptions> = runSchemaCheck): Command {
  const command = new Command('check')
    .description(
      "Check a collection's stored documents against its validator, as a job; with --wait, print the documents that do not match and exit 1 when there are any",
    )
    .argument('<collection>', 'collection name')
    .option('--wait', 'wait for the job and print its result', false)
    .option('--interval <ms>', 'milliseconds between two looks (default 1000)', wholeNumber(50, 60_000), 1000)
    .action((collection: string, options: Omit<SchemaCheckOptions, 'collection'>) =>
      run(f, { collection, wait: options.wait, interval: options.interval }),
    );
  return withExamples(command, [
    'dp schema check orders              # prints the job; `dp jobs watch <id>` follows it',
    'dp schema check orders --wait',
    'dp schema check orders --wait --json | jq .result.failing',
  ]);
}

/**
 * Starts the check. Without --wait, prints the job as `dp jobs get` does. With --wait, follows it to its end and
 * prints the result: on a terminal the counts and a table of the first failing documents, otherwise the job as
 * JSON; the exit status is 1 when the job failed or some documents do not match.
 */
export async function runSchemaCheck(f: Factory, options: SchemaCheckOptions): Promise<void> {
  const { collection } = options;
  const { client, cluster } = await schemaClient(f);
  const started = await attempt(
    `check the documents of "${collection}"`,
    client.schema.validator.check(collection, cluster),
  );
  const out = await f.output();
  if (!options.wait) return writeJob(out, started);
  const job = FINISHED.has(started.status)
    ? started
    : await attempt(
        `wait for job "${started._id}"`,
        client.jobs.wait(started._id, { intervalMs: options.interval }),
      );
  if (out.json || !out.tty) await writeJob(out, job);
  else await printResult(f, job);
  failIfUnsuccessful(job);
  const result = checkResult(job);
  const failing = result?.failing ?? 0;
  if (failing > 0)
    throw new CliError(
      `${formatCount(failing)} of ${formatCount(result!.checked)} documents of "${collection}" do not match its validator`,
      { hint: `\`dp jobs get ${job._id} --json\` lists the first ones and why` },
    );
}

/** The result of a validator check (the other kinds have their own). */
function checkResult(job: Job) {
  return job.result && 'checked' in job.result ? job.result : null;
}

const FINISHED = new Set<Job['status']>(['succeeded', 'failed', 'cancelled']);

async function printResult(f: Factory, job: Job): Promise<void> {
  const out = await f.output();
  const result = checkResult(job);
  if (!result) return writeJob(out, job);
  await out.write(
    `Checked ${formatCount(result.checked)} documents: ${formatCount(result.failing)} do not match\n`,
  );
  if (result.samples.length === 0) return;
  await out.writeTable(
    ['_id', 'path', 'message'],
    result.samples.flatMap((sample) =>
      sample.errors.map((error) => [sample._id, error.path || '/', error.message]),
    ),
  );
}
