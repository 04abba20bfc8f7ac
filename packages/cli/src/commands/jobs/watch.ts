import type { Job } from '@dataplatform/sdk';
import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { isTerminal } from '../../iostreams.js';
import { type Run, wholeNumber, withExamples } from '../command.js';
import { countsText, failIfUnsuccessful, writeJob } from './show.js';

/** Options of `dp jobs watch`. */
export interface JobsWatchOptions {
  id: string;
  interval: number;
}

/** `dp jobs watch <id>`. */
export function newJobsWatchCommand(f: Factory, run: Run<JobsWatchOptions> = runJobsWatch): Command {
  const command = new Command('watch')
    .description('Follow a job until it finishes; exit status 1 when it failed or was cancelled')
    .argument('<id>', 'the job id')
    .option('--interval <ms>', 'milliseconds between two looks (default 1000)', wholeNumber(50, 60_000), 1000)
    .action((id: string, options: Omit<JobsWatchOptions, 'id'>) => run(f, { id, ...options }));
  return withExamples(command, [
    'dp jobs watch job_01J…',
    'dp jobs watch job_01J… --interval 250 | jq .counts',
  ]);
}

/**
 * On a terminal, one line redrawn with the status and counts, then the finished job; piped, one JSON line per
 * change; with --json, only the finished job.
 */
export async function runJobsWatch(f: Factory, options: JobsWatchOptions): Promise<void> {
  const client = await f.client();
  const out = await f.output();
  const live = isTerminal(f.io.stderr) && !out.json;
  let last: Job | undefined;
  await attempt(`watch job "${options.id}"`, async () => {
    for await (const job of client.jobs.watch(options.id, { intervalMs: options.interval })) {
      last = job;
      if (live) f.io.stderr.write(`\r\x1b[2K${job.status}  ${countsText(job)}`);
      else if (!out.json && !out.tty) await out.writeJsonLine(job);
    }
  });
  if (live) f.io.stderr.write('\r\x1b[2K');
  if (out.json || out.tty) await writeJob(out, last!);
  failIfUnsuccessful(last!);
}
