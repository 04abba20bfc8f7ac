import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { formatBytes, formatCount } from '../../output/units.js';
import { type Run, withExamples } from '../command.js';
import { backupsClient } from './backups-client.js';

/** Options of `dp backups create` (none: the cluster comes from the global `--cluster`). */
export type BackupsCreateOptions = Record<string, never>;

/** `dp backups create`. */
export function newBackupsCreateCommand(
  f: Factory,
  run: Run<BackupsCreateOptions> = runBackupsCreate,
): Command {
  const command = new Command('create')
    .description('Back up the cluster: its collections, documents, validators and indexes, at one instant')
    .action(() => run(f, {}));
  return withExamples(command, ['dp backups create', 'dp --cluster cls_… backups create --json | jq ._id']);
}

/** The backup as JSON, or one line on a terminal. */
export async function runBackupsCreate(f: Factory, _options: BackupsCreateOptions): Promise<void> {
  const { client, cluster } = await backupsClient(f);
  const backup = await attempt('back up the cluster', client.backups.create(cluster));
  const out = await f.output();
  if (out.json || !out.tty) return void (await out.writeJson(backup));
  await out.write(
    backup.status === 'succeeded'
      ? `Backup ${backup._id}: ${formatCount(backup.documentCount)} documents, ${formatBytes(backup.sizeBytes)}\n`
      : `Backup ${backup._id} is ${backup.status}; \`dp backups list\` shows when it is written\n`,
  );
}
