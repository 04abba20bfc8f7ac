import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { writeJob } from './show.js';

/** Options of `dp jobs get`. */
export interface JobsGetOptions {
  id: string;
}

/** `dp jobs get <id>`. */
export function newJobsGetCommand(f: Factory, run: Run<JobsGetOptions> = runJobsGet): Command {
  const command = new Command('get')
    .description('Show a job: status, counts, failure and the rows it refused')
    .argument('<id>', 'the job id')
    .action((id: string) => run(f, { id }));
  return withExamples(command, ['dp jobs get job_01J…', 'dp jobs get job_01J… --json | jq .errors']);
}

export async function runJobsGet(f: Factory, options: JobsGetOptions): Promise<void> {
  const client = await f.client();
  const job = await attempt(`get job "${options.id}"`, client.jobs.get(options.id));
  await writeJob(await f.output(), job);
}
