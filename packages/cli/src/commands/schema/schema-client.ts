import type { DataPlatform, SchemaClusterParams } from '@dataplatform/sdk';
import type { Factory } from '../../factory.js';
import { sessionClient } from '../session-client.js';

/**
 * The client of `dp schema …` and `dp indexes …`, and the cluster their dashboard routes act on. The writes take a
 * session only (the token is sent whenever one is set, as `dp functions` does); the reads also work with an API key
 * holding `metadata:read`, on the key's cluster. With a session, the global `--cluster` is sent as `clusterId`.
 */
export async function schemaClient(
  f: Factory,
): Promise<{ client: DataPlatform; cluster: SchemaClusterParams }> {
  const client = await sessionClient(f);
  const token = client.token;
  const session = !client.apiKey && token !== undefined && !token.startsWith('svc_');
  return { client, cluster: session && f.flags.cluster ? { clusterId: f.flags.cluster } : {} };
}
