import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';
import { clusterOfCommand } from './show.js';

/** `dp metrics summary`: a cluster's totals. */
export function newMetricsSummaryCommand(
  f: Factory,
  run: Run<Record<string, never>> = runMetricsSummary,
): Command {
  const command = new Command('summary')
    .description(
      "A cluster's documents, storage, collections, keys, webhook success rate, function runs and requests today",
    )
    .action(() => run(f, {}));
  return withExamples(command, ['dp metrics summary', 'dp metrics summary --cluster cls_… --json']);
}

export async function runMetricsSummary(f: Factory): Promise<void> {
  const client = await sessionClient(f);
  const clusterId = await clusterOfCommand(f, client);
  const summary = await attempt(
    `read the totals of cluster "${clusterId}"`,
    client.metrics.summary(clusterId),
  );
  const out = await f.output();
  if (out.json) return void (await out.writeJson(summary));
  if (!out.tty) return void (await out.writeJsonLine(summary));
  const rate =
    summary.webhookSuccessRate === null ? '–' : `${(summary.webhookSuccessRate * 100).toFixed(1)} %`;
  await out.writeTable(
    ['documents', 'bytes', 'collections', 'keys', 'webhooks ok', 'function runs', 'requests today'],
    [
      [
        summary.documents,
        summary.storageBytes,
        summary.collections,
        summary.keys,
        rate,
        summary.functionInvocations,
        summary.requestsToday,
      ],
    ],
  );
}
