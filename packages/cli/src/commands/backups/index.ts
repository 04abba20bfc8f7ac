import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newBackupsCreateCommand } from './create.js';
import { newBackupsDownloadCommand } from './download.js';
import { newBackupsListCommand } from './list.js';
import { newBackupsRestoreCommand } from './restore.js';
import { newBackupsScheduleCommand } from './schedule.js';

/** `dp backups …`: back up a cluster, list, download and restore its backups. `dp backups` alone lists them. */
export function newBackupsCommand(f: Factory): Command {
  const command = new Command('backups')
    .description('Back up a cluster, list and download its backups, restore one, schedule them')
    .addCommand(newBackupsListCommand(f), { isDefault: true })
    .addCommand(newBackupsCreateCommand(f))
    .addCommand(newBackupsDownloadCommand(f))
    .addCommand(newBackupsRestoreCommand(f))
    .addCommand(newBackupsScheduleCommand(f));
  return withExamples(command, [
    'dp backups create',
    'dp backups',
    'dp backups restore bkp_01J… --wait',
    'dp backups schedule "0 3 * * *" --retain 7',
  ]);
}
