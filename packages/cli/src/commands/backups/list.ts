import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { formatBytes, formatCount } from '../../output/units.js';
import { type Run, withExamples } from '../command.js';
import { backupsClient } from './backups-client.js';

/** Options of `dp backups list`. */
export type BackupsListOptions = Record<string, never>;

/** `dp backups list`. */
export function newBackupsListCommand(f: Factory, run: Run<BackupsListOptions> = runBackupsList): Command {
  const command = new Command('list')
    .description('List the backups of the cluster, newest first')
    .action(() => run(f, {}));
  return withExamples(command, ['dp backups', 'dp backups list --json | jq ".data[0]._id"']);
}

/** A table on a terminal, one JSON backup per line when piped, `{ data }` with --json. */
export async function runBackupsList(f: Factory, _options: BackupsListOptions): Promise<void> {
  const { client, cluster } = await backupsClient(f);
  const answer = await attempt('list backups', client.backups.list(cluster));
  const out = await f.output();
  if (out.json) return void (await out.writeJson(answer));
  if (!out.tty) {
    for (const backup of answer.data) await out.writeJsonLine(backup);
    return;
  }
  await out.writeTable(
    ['id', 'status', 'documents', 'size', 'created'],
    answer.data.map((b) => [
      b._id,
      b.status,
      formatCount(b.documentCount),
      formatBytes(b.sizeBytes),
      b.createdAt,
    ]),
  );
  if (answer.data.length === 0) out.note('No backups yet');
}
