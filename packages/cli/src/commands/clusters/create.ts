import type { ClusterCreate } from '@dataplatform/sdk';
import { Command, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { writeCluster } from './show.js';

/** Options of `dp clusters create`. */
export interface ClustersCreateOptions {
  name: string;
  region?: string | undefined;
  tier?: ClusterCreate['tier'];
}

/** `dp clusters create --name <name>`. */
export function newClustersCreateCommand(
  f: Factory,
  run: Run<ClustersCreateOptions> = runClustersCreate,
): Command {
  const command = new Command('create')
    .description('Create a cluster within your plan (needs a session: `dp login`)')
    .requiredOption('--name <name>', 'a name, 1 to 100 characters')
    .option('--region <region>', "one of the server's regions (default: its first)")
    .addOption(
      new Option('--tier <tier>', "the cluster's tier (default: the highest your plan allows)").choices([
        'free',
        'starter',
        'team',
        'enterprise',
      ]),
    )
    .action((options: ClustersCreateOptions) => run(f, options));
  return withExamples(command, [
    'dp clusters create --name staging',
    'dp clusters create --name eu --region eu-west',
  ]);
}

/** Creates it; past the plan's limit the server says so (403 `plan_limit`, exit status 5). */
export async function runClustersCreate(f: Factory, options: ClustersCreateOptions): Promise<void> {
  const client = await f.client();
  const cluster = await attempt(
    `create cluster "${options.name}"`,
    client.clusters.create({ name: options.name, region: options.region, tier: options.tier }),
  );
  const out = await f.output();
  await writeCluster(out, cluster);
  out.success(`Created cluster ${cluster._id} (${cluster.name})`);
}
