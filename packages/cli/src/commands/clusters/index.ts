import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newClusterActionCommand } from './change.js';
import { newClustersCreateCommand } from './create.js';
import { newClustersListCommand } from './list.js';
import { newClusterMembersCommand } from './members.js';

/** `dp clusters …`: your clusters and their members. `dp clusters` alone lists them. */
export function newClustersCommand(f: Factory): Command {
  const command = new Command('clusters')
    .description('Create, list, pause, resume and delete clusters, and manage their members')
    .addCommand(newClustersListCommand(f), { isDefault: true })
    .addCommand(newClustersCreateCommand(f))
    .addCommand(newClusterActionCommand('get', f))
    .addCommand(newClusterActionCommand('pause', f))
    .addCommand(newClusterActionCommand('resume', f))
    .addCommand(newClusterActionCommand('delete', f))
    .addCommand(newClusterMembersCommand(f));
  return withExamples(command, [
    'dp clusters',
    'dp clusters create --name staging',
    'dp clusters pause cls_01J…',
  ]);
}
