import type { Cluster, DataPlatform, User } from '@dataplatform/sdk';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** What every page gets: the SDK client (for the chosen cluster), who is signed in, and the clusters. */
export interface Session {
  /** The SDK client with the session token, sending `X-Cluster-Id` of the chosen cluster. */
  client: DataPlatform;
  user: User;
  clusters: Cluster[];
  /** The chosen cluster; data, keys and the cluster-scoped areas act on it. */
  clusterId: string;
  setClusterId(id: string): void;
  /** Reloads the list of clusters (after one was created, renamed or deleted). */
  reloadClusters(): Promise<void>;
  /** Unread notifications, for the badge; pages that read some call `refreshUnread`. */
  unread: number;
  refreshUnread(): void;
}

export const SessionContext = createContext<Session | null>(null);

/** The signed-in session; only pages rendered inside the shell call it. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the dashboard shell');
  return session;
}
