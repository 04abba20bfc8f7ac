import { Command, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, wholeNumber, withExamples } from '../command.js';
import { backupsClient } from './backups-client.js';

/** Backups a new schedule keeps when `--retain` is left out. */
const DEFAULT_RETAIN = 7;

/** Options of `dp backups schedule`. */
export interface BackupsScheduleOptions {
  /** The cron expression to set; neither it nor `off`: show the schedule. */
  cron: string | undefined;
  retain: number;
  off: boolean;
}

/** `dp backups schedule [cron] [--retain n] [--off]`. */
export function newBackupsScheduleCommand(
  f: Factory,
  run: Run<BackupsScheduleOptions> = runBackupsSchedule,
): Command {
  const command = new Command('schedule')
    .description(
      'Show the backup schedule of the cluster, or set it: a backup on every tick of a cron expression (UTC), keeping the newest --retain',
    )
    .argument('[cron]', 'a cron expression: 5 fields (minutes first), 6 (seconds first) or @daily, @hourly…')
    .option('--retain <n>', `backups kept (default ${DEFAULT_RETAIN})`, wholeNumber(1, 1000), DEFAULT_RETAIN)
    .addOption(new Option('--off', 'remove the schedule').default(false))
    .action((cron: string | undefined, options: Omit<BackupsScheduleOptions, 'cron'>) =>
      run(f, { cron, retain: options.retain, off: options.off }),
    );
  return withExamples(command, [
    'dp backups schedule',
    'dp backups schedule "0 3 * * *" --retain 14',
    'dp backups schedule --off',
  ]);
}

/** The schedule as JSON, or a line on a terminal. */
export async function runBackupsSchedule(f: Factory, options: BackupsScheduleOptions): Promise<void> {
  const { client, cluster } = await backupsClient(f);
  const change = options.off
    ? { cron: null, retain: 1 }
    : options.cron
      ? { cron: options.cron, retain: options.retain }
      : null;
  const schedule = change
    ? await attempt('set the backup schedule', client.backups.setSchedule({ ...cluster, ...change }))
    : await attempt('show the backup schedule', client.backups.getSchedule(cluster));
  const out = await f.output();
  if (out.json || !out.tty) return void (await out.writeJson(schedule));
  await out.write(
    schedule.cron === null
      ? 'No backup schedule\n'
      : `Backups on "${schedule.cron}" (UTC), keeping ${schedule.retain}; next at ${schedule.nextRunAt ?? 'none'}\n`,
  );
}
