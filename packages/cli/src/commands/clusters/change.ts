import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { writeCluster } from './show.js';

/** Options of the commands that act on one cluster. */
export interface ClusterIdOptions {
  id: string;
}

/** What each of `get`, `pause`, `resume` and `delete` says. */
const ACTIONS = {
  get: 'Show a cluster with its document count and storage',
  pause: 'Pause a cluster: every data request for it answers 503 until it is resumed',
  resume: 'Resume a paused cluster',
  delete: 'Delete a cluster and everything in it (by a job; its keys stop at once)',
} as const;

export type ClusterAction = keyof typeof ACTIONS;

/** `dp clusters get|pause|resume|delete <id>`. */
export function newClusterActionCommand(
  action: ClusterAction,
  f: Factory,
  run: Run<ClusterIdOptions> = (factory, options) => runClusterAction(action, factory, options),
): Command {
  const command = new Command(action)
    .description(`${ACTIONS[action]} (needs a session: \`dp login\`)`)
    .argument('<id>', 'the cluster id (`dp clusters` lists them)')
    .action((id: string) => run(f, { id }));
  return withExamples(command, [`dp clusters ${action} cls_01J…`]);
}

export async function runClusterAction(
  action: ClusterAction,
  f: Factory,
  { id }: ClusterIdOptions,
): Promise<void> {
  const client = await f.client();
  const what = `${action} cluster "${id}"`;
  if (action === 'delete') {
    const job = await attempt(what, client.clusters.delete(id));
    const out = await f.output();
    if (out.json) await out.writeJson(job);
    return out.success(`Deleting cluster ${id}: job ${job._id} (\`dp jobs watch ${job._id}\`)`);
  }
  const call =
    action === 'get'
      ? client.clusters.get(id)
      : action === 'pause'
        ? client.clusters.pause(id)
        : client.clusters.resume(id);
  const cluster = await attempt(what, call);
  const out = await f.output();
  await writeCluster(out, cluster);
  if (action !== 'get') out.success(`Cluster ${cluster._id} is ${cluster.status}`);
}
