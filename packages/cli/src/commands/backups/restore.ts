import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, wholeNumber, withExamples } from '../command.js';
import { failIfUnsuccessful, writeJob } from '../jobs/show.js';
import { backupsClient } from './backups-client.js';

/** Options of `dp backups restore`. */
export interface BackupsRestoreOptions {
  id: string;
  /** The cluster to restore into; the backup's own when left out. */
  target: string | undefined;
  wait: boolean;
  interval: number;
}

/** `dp backups restore <id> [--target cluster] [--wait]`. */
export function newBackupsRestoreCommand(
  f: Factory,
  run: Run<BackupsRestoreOptions> = runBackupsRestore,
): Command {
  const command = new Command('restore')
    .description(
      "Restore a backup: each of its collections replaces the target cluster's collection of that name, in one transaction",
    )
    .argument('<id>', 'the backup id')
    .option('--target <cluster>', "the cluster to restore into (default: the backup's own)")
    .option('--wait', 'wait for the job and exit 1 when it failed', false)
    .option('--interval <ms>', 'milliseconds between two looks (default 1000)', wholeNumber(50, 60_000), 1000)
    .action((id: string, options: Omit<BackupsRestoreOptions, 'id'>) =>
      run(f, { id, target: options.target, wait: options.wait, interval: options.interval }),
    );
  return withExamples(command, [
    'dp backups restore bkp_01J… --wait',
    'dp backups restore bkp_01J… --target cls_…',
  ]);
}

/** Starts the restore and prints its job; with --wait, the finished job (exit 1 when it failed). */
export async function runBackupsRestore(f: Factory, options: BackupsRestoreOptions): Promise<void> {
  const { client } = await backupsClient(f);
  const started = await attempt(
    `restore backup "${options.id}"`,
    client.backups.restore(options.id, options.target ? { targetClusterId: options.target } : {}),
  );
  const out = await f.output();
  if (!options.wait) return writeJob(out, started);
  const job =
    started.status === 'queued' || started.status === 'running'
      ? await attempt(
          `wait for job "${started._id}"`,
          client.jobs.wait(started._id, { intervalMs: options.interval }),
        )
      : started;
  await writeJob(out, job);
  failIfUnsuccessful(job);
}
