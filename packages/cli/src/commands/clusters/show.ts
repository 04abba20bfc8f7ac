import type { Cluster } from '@dataplatform/sdk';
import type { Output } from '../../output/printer.js';

/** One row of `dp clusters list`. */
export function clusterRow(cluster: Cluster): unknown[] {
  return [
    cluster._id,
    cluster.name,
    cluster.status,
    cluster.region,
    cluster.tier,
    cluster.documentCount,
    cluster.storageBytes,
  ];
}

export const CLUSTER_HEADER = ['id', 'name', 'status', 'region', 'tier', 'documents', 'bytes'];

/** A cluster record: the record with --json, a JSON line when piped, a one-row table on a terminal. */
export async function writeCluster(out: Output, cluster: Cluster): Promise<void> {
  if (out.json) return void (await out.writeJson(cluster));
  if (!out.tty) return void (await out.writeJsonLine(cluster));
  await out.writeTable(CLUSTER_HEADER, [clusterRow(cluster)]);
}
