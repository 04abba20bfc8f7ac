import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { writeJob } from './show.js';

/** Options of `dp jobs cancel`. */
export interface JobsCancelOptions {
  id: string;
}

/** `dp jobs cancel <id>`. */
export function newJobsCancelCommand(f: Factory, run: Run<JobsCancelOptions> = runJobsCancel): Command {
  const command = new Command('cancel')
    .description('Stop a running job after the chunk it is storing (needs a session: `dp login`)')
    .argument('<id>', 'the job id')
    .action((id: string) => run(f, { id }));
  return withExamples(command, ['dp jobs cancel job_01J…']);
}

/** Prints the cancelled job; a finished job exits with status 6 (conflict). */
export async function runJobsCancel(f: Factory, options: JobsCancelOptions): Promise<void> {
  const client = await f.client();
  const job = await attempt(`cancel job "${options.id}"`, client.jobs.cancel(options.id));
  const out = await f.output();
  await writeJob(out, job);
  out.success(
    `Cancelled ${job._id}; the rows it stored stay (resume with \`dp upload … --resume ${job._id}\`)`,
  );
}
