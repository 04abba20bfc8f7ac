import type { BackupClusterParams, DataPlatform } from '@dataplatform/sdk';
import type { Factory } from '../../factory.js';
import { sessionClient } from '../session-client.js';

/** The client of `dp backups …` (a session) and the cluster the global `--cluster` names, as `clusterId`. */
export async function backupsClient(
  f: Factory,
): Promise<{ client: DataPlatform; cluster: BackupClusterParams }> {
  const client = await sessionClient(f);
  return { client, cluster: f.flags.cluster ? { clusterId: f.flags.cluster } : {} };
}
