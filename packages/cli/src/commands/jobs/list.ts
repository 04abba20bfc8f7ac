import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, wholeNumber, withExamples } from '../command.js';

/** Options of `dp jobs list`. */
export interface JobsListOptions {
  limit?: number | undefined;
  skip?: number | undefined;
}

/** `dp jobs list` (also `dp jobs`). */
export function newJobsListCommand(f: Factory, run: Run<JobsListOptions> = runJobsList): Command {
  const command = new Command('list')
    .description(
      "List jobs, newest first: those of the key's cluster, or of every cluster you own when signed in",
    )
    .option('--limit <n>', 'jobs to show, 1 to 1000 (default 50)', wholeNumber(1, 1000))
    .option('--skip <n>', 'jobs to skip', wholeNumber(0))
    .action((options: JobsListOptions) => run(f, options));
  return withExamples(command, ['dp jobs', 'dp jobs list --limit 5 --json']);
}

/** A table on a terminal, one JSON job per line when piped, the API's page with --json. */
export async function runJobsList(f: Factory, options: JobsListOptions): Promise<void> {
  const client = await f.client();
  const page = await attempt('list jobs', client.jobs.list({ limit: options.limit, skip: options.skip }));
  const out = await f.output();
  if (out.json) return void (await out.writeJson(page));
  if (!out.tty) {
    for (const job of page.data) await out.writeJsonLine(job);
    return;
  }
  await out.writeTable(
    ['id', 'kind', 'status', 'collection', 'rows', 'stored', 'refused', 'created'],
    page.data.map((j) => [
      j._id,
      j.kind,
      j.status,
      'collection' in j.input
        ? j.input.collection
        : 'backupId' in j.input
          ? `backup ${j.input.backupId}`
          : 'datasetId' in j.input
            ? `dataset ${j.input.datasetId}`
            : 'modelId' in j.input
              ? `model ${j.input.modelId}`
              : `cluster ${j.input.clusterId}`,
      j.counts.rows,
      j.counts.inserted,
      j.counts.failed,
      j.createdAt,
    ]),
  );
  out.note(
    page.total === 0
      ? 'No jobs yet: `dp upload` starts one'
      : `Showing ${page.data.length} of ${page.total} jobs`,
  );
}
