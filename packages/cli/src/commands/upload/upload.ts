import type { ImportFormat, Job } from '@dataplatform/sdk';
import { Command, Option } from 'commander';
import { attempt, UsageError } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { isTerminal } from '../../iostreams.js';
import { type Run, withExamples } from '../command.js';
import { countsText, failIfUnsuccessful, paceText, writeJob } from '../jobs/show.js';
import { startProgress } from './progress.js';
import { counted, openSource, type Tally } from './source.js';

/** Options of `dp upload`. */
export interface UploadOptions {
  file: string;
  collection: string;
  format?: ImportFormat | undefined;
  infer: boolean;
  onError: 'skip' | 'abort';
  /** A job id, or true to find the newest unfinished import of the collection. */
  resume?: string | true | undefined;
}

/** `dp upload <file> --collection <name>`. */
export function newUploadCommand(f: Factory, run: Run<UploadOptions> = runUpload): Command {
  const command = new Command('upload')
    .description(
      'Stream a file of documents (NDJSON, JSON array or CSV; gzip too) into a collection as an import job',
    )
    .argument('<file>', 'the file; - for standard input')
    .requiredOption('-c, --collection <name>', 'the collection to store the documents in')
    .addOption(
      new Option(
        '--format <format>',
        'the file format (default: from the name, else guessed by the server)',
      ).choices(['ndjson', 'json', 'csv']),
    )
    .option(
      '--no-infer',
      'CSV: keep every cell as text (by default numbers, true/false and empty cells are typed)',
    )
    .addOption(
      new Option('--on-error <mode>', 'skip: leave bad rows out and go on; abort: stop at the first one')
        .choices(['skip', 'abort'])
        .default('skip'),
    )
    .option(
      '--resume [job-id]',
      'continue an import that stopped, passing the rows it stored (default: the newest unfinished one)',
    )
    .action((file: string, options: Omit<UploadOptions, 'file'>) => run(f, { file, ...options }));
  return withExamples(command, [
    'dp upload orders.ndjson --collection orders',
    'dp upload export.csv.gz -c people --no-infer --on-error abort',
    'gunzip -c big.ndjson.gz | dp upload - -c events',
    '# after an interruption, send the same file again: stored rows are passed over',
    'dp upload orders.ndjson -c orders --resume',
  ]);
}

const UNFINISHED = new Set(['failed', 'cancelled', 'running']);

/**
 * Streams the file to `POST /api/v1/data/{collection}/import` with progress on standard error, then prints the
 * finished job (`--json`: the job). Exit status 1 when the job failed; the hint says how to resume.
 */
export async function runUpload(f: Factory, options: UploadOptions): Promise<void> {
  const source = await openSource(f.io, options.file);
  const { streamingFetch } = await import('../../http/node-fetch.js');
  const client = await f.client({ fetch: streamingFetch });
  const resume = options.resume === true ? await newestUnfinished(f, options.collection) : options.resume;
  const format = options.format ?? source.format;
  const tally: Tally = { bytes: 0, rows: source.gzip ? undefined : 0 };
  const progress = startProgress({ io: f.io, tally, size: source.size, quiet: f.flags.json });
  const again = `dp upload ${options.file === '-' ? '-' : quote(options.file)} -c ${options.collection} --resume`;
  const onInterrupt = () => {
    progress.stop();
    f.io.stderr.write(`\ninterrupted: the rows stored so far stay; to go on, run \`${again}\`\n`);
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  let job: Job;
  try {
    job = await attempt(
      `upload ${source.name} into "${options.collection}"`,
      client.data.import(options.collection, counted(source.open(), tally, format), {
        format,
        gzip: source.gzip,
        onError: options.onError,
        infer: options.infer,
        resume,
      }),
    );
  } finally {
    process.off('SIGINT', onInterrupt);
    progress.stop();
  }
  const out = await f.output();
  await writeJob(out, job);
  failIfUnsuccessful(
    job,
    `fix what the failure names, then run \`${again} ${job._id}\`: stored rows are passed over`,
  );
  // What the server confirms: the job's counts, and its pace by its own timestamps, not the bytes sent.
  const summary = `${countsText(job)} into "${options.collection}"${paceText(job)}`;
  if (isTerminal(f.io.stderr)) out.success(summary);
  else if (!f.flags.json) f.io.stderr.write(`imported ${summary}\n`);
}

/** The newest import of the collection that did not finish, for `--resume` without an id. */
async function newestUnfinished(f: Factory, collection: string): Promise<string> {
  const client = await f.client();
  const { data } = await attempt('list jobs', client.jobs.list({ limit: 100 }));
  const job = data.find(
    (j) =>
      j.kind === 'import' &&
      'collection' in j.input &&
      j.input.collection === collection &&
      UNFINISHED.has(j.status),
  );
  if (!job) {
    throw new UsageError(
      `no unfinished import into "${collection}" to resume`,
      '`dp jobs` lists the jobs; give one with --resume <job-id>',
    );
  }
  return job._id;
}

function quote(path: string): string {
  return /^[\w./@:+-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
