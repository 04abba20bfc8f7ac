import type { DataPlatform } from '@dataplatform/sdk';
import { Command, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';

/** Options of `dp metrics`. */
export interface MetricsShowOptions {
  interval: 'minute' | 'hour' | 'day';
  from?: string;
  to?: string;
  key?: string;
}

const HEADER = ['time', 'requests', 'errors', 'p50 ms', 'p95 ms', 'p99 ms', 'bytes in', 'bytes out'];

/** `dp metrics [--interval hour] [--from …] [--to …] [--key id]`: the request metrics of a cluster. */
export function newMetricsShowCommand(f: Factory, run: Run<MetricsShowOptions> = runMetricsShow): Command {
  const command = new Command('show')
    .description('Requests, errors, latency percentiles and bytes of a cluster per minute, hour or day')
    .addOption(
      new Option('--interval <size>', 'bucket size').choices(['minute', 'hour', 'day']).default('minute'),
    )
    .option('--from <time>', 'first instant, ISO 8601 (default: an hour, a day or 30 days before --to)')
    .option('--to <time>', 'last instant, ISO 8601 (default: now)')
    .option('--key <id>', 'only requests made with this API key')
    .action((options: MetricsShowOptions) => run(f, options));
  return withExamples(command, [
    'dp metrics',
    'dp metrics --interval hour --json',
    'dp metrics --cluster cls_… --key key_…',
  ]);
}

/** The cluster of `--cluster`, else the first cluster the user owns. */
export async function clusterOfCommand(f: Factory, client: DataPlatform): Promise<string> {
  if (f.flags.cluster) return f.flags.cluster;
  const list = await attempt('list your clusters', client.clusters.list());
  return list.data[0]!._id;
}

export async function runMetricsShow(f: Factory, options: MetricsShowOptions): Promise<void> {
  const client = await sessionClient(f);
  const clusterId = await clusterOfCommand(f, client);
  const metrics = await attempt(
    `read the metrics of cluster "${clusterId}"`,
    client.metrics.get({
      clusterId,
      interval: options.interval,
      from: options.from,
      to: options.to,
      keyId: options.key,
    }),
  );
  const out = await f.output();
  if (out.json) return void (await out.writeJson(metrics));
  if (!out.tty) {
    for (const point of metrics.series) await out.writeJsonLine(point);
    return;
  }
  await out.writeTable(
    HEADER,
    metrics.series.map((p) => [p.t, p.requests, p.errors, p.p50Ms, p.p95Ms, p.p99Ms, p.bytesIn, p.bytesOut]),
  );
}
