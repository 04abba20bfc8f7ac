import type { Job } from '@dataplatform/sdk';
import { CliError } from '../../errors/cli-error.js';
import type { Output } from '../../output/printer.js';
import { formatBytes, formatCount, formatElapsed } from '../../output/units.js';

/** The most row errors printed on a terminal; `--json` and `dp jobs get` give all the job kept. */
const ERRORS_SHOWN = 10;

/** The job's counts in words: "1,000 rows: 998 stored, 2 refused". */
export function countsText(job: Job): string {
  const { rows, inserted, failed } = job.counts;
  return `${formatCount(rows)} rows: ${formatCount(inserted)} stored, ${formatCount(failed)} refused`;
}

/**
 * How long a finished job ran and its rows per second, from the job's own timestamps (`startedAt`, which a resume
 * sets again, to `finishedAt`): " in 3.1s (64,516 rows/s, timed by the server)". Empty for a job that has not
 * finished, or one too quick for the timestamps' milliseconds.
 */
export function paceText(job: Job): string {
  if (!job.startedAt || !job.finishedAt) return '';
  const seconds = (Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000;
  if (!(seconds > 0)) return '';
  return ` in ${formatElapsed(seconds)} (${formatCount(job.counts.rows / seconds)} rows/s, timed by the server)`;
}

function statusText(job: Job, out: Output): string {
  const { green, red, yellow } = out.style;
  if (job.status === 'succeeded') return green(job.status);
  if (job.status === 'failed') return red(job.status);
  if (job.status === 'cancelled') return yellow(job.status);
  return job.status;
}

/** What a job does, in a few words. */
function kindText(job: Job): string {
  const { input } = job;
  if ('format' in input)
    return `${job.kind} into "${input.collection}" (${input.format}, on error ${input.onError})`;
  if ('datasetId' in input) return `${job.kind} of dataset ${input.datasetId}`;
  if ('outputCollection' in input)
    return `${job.kind} with model ${input.modelId} of "${input.collection}" into "${input.outputCollection}"`;
  if ('modelId' in input) return `${job.kind} of model ${input.modelId}`;
  if ('fields' in input)
    return `${job.kind} "${input.name}" of "${input.collection}" on ${input.fields.map((f) => f.path).join(', ')}${input.unique ? ' (unique)' : ''}`;
  if ('collection' in input) return `${job.kind} of "${input.collection}"`;
  if ('targetClusterId' in input)
    return `${job.kind} of backup ${input.backupId} into cluster ${input.targetClusterId}`;
  if ('backupId' in input) return `${job.kind} ${input.backupId}`;
  return `${job.kind} of cluster ${input.clusterId}`;
}

/** A job for a person: its facts, its failure and its first row errors. */
export async function printJob(out: Output, job: Job): Promise<void> {
  const { bold, dim } = out.style;
  const line = (label: string, value: string) => `${label.padEnd(12)}${value}\n`;
  let text =
    line('Job:', bold(job._id)) +
    line('Status:', statusText(job, out)) +
    line('Kind:', kindText(job)) +
    line('Counts:', countsText(job)) +
    line('Read:', formatBytes(job.bytes)) +
    line('Created:', job.createdAt) +
    (job.finishedAt ? line('Finished:', job.finishedAt) : '');
  const result = job.result;
  if (result && 'checked' in result)
    text += line(
      'Result:',
      `${formatCount(result.checked)} checked, ${formatCount(result.failing)} not matching`,
    );
  else if (result)
    text += line(
      'Result:',
      `${formatCount(result.documents)} documents in ${formatCount(result.collections)} collections, ${formatCount(result.indexes)} indexes`,
    );
  if (job.failure) text += line('Failure:', `${job.failure.code}: ${job.failure.message}`);
  await out.write(text);
  if (job.errors.length > 0) {
    await out.write(
      `\n${bold('Refused rows')}${dim(` (first ${Math.min(ERRORS_SHOWN, job.errors.length)})`)}\n`,
    );
    await out.writeTable(
      ['line', 'code', 'message'],
      job.errors.slice(0, ERRORS_SHOWN).map((e) => [e.line, e.code, e.message]),
    );
  }
}

/** Prints a job as the output wants it: JSON, a line of JSON when piped, or for a person. */
export async function writeJob(out: Output, job: Job): Promise<void> {
  if (out.json) await out.writeJson(job);
  else if (!out.tty) await out.writeJsonLine(job);
  else await printJob(out, job);
}

/** A job that did not succeed ends the command with status 1, its failure as the message. */
export function failIfUnsuccessful(job: Job, resumeHint?: string): void {
  if (job.status === 'succeeded' || job.status === 'queued' || job.status === 'running') return;
  const reason = job.failure ? `${job.failure.code}: ${job.failure.message}` : job.status;
  throw new CliError(`job ${job._id} ${job.status} after ${countsText(job)} (${reason})`, {
    hint: resumeHint ?? 'the rows stored so far stay; `dp jobs get <id>` shows the refused rows',
  });
}
