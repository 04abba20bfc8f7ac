import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { CLUSTER_HEADER, clusterRow } from './show.js';

/** `dp clusters list` (also `dp clusters`). */
export function newClustersListCommand(
  f: Factory,
  run: Run<Record<string, never>> = runClustersList,
): Command {
  const command = new Command('list')
    .description('List the clusters you are a member of, oldest first')
    .action(() => run(f, {}));
  return withExamples(command, ['dp clusters', 'dp clusters list --json']);
}

/** A table on a terminal, one JSON cluster per line when piped, `{ data, total }` with --json. */
export async function runClustersList(f: Factory): Promise<void> {
  const client = await f.client();
  const list = await attempt('list clusters', client.clusters.list({ limit: 1000 }));
  const out = await f.output();
  if (out.json) return void (await out.writeJson(list));
  if (!out.tty) {
    for (const cluster of list.data) await out.writeJsonLine(cluster);
    return;
  }
  await out.writeTable(CLUSTER_HEADER, list.data.map(clusterRow));
}
