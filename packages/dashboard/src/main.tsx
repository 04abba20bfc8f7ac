import { type Cluster, DataPlatform, type User } from '@dataplatform/sdk';
import { render } from 'preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { type Session, SessionContext } from './context.js';
import { followNotifications } from './notification-feed.js';
import { goToSignIn, takeToken } from './session.js';
import { Shell } from './shell.js';
import { applyTheme, storedTheme } from './theme.js';
import { describeError } from './ui/errors.js';
import './styles.css';

const CLUSTER_KEY = 'dataplatform.cluster';

interface Boot {
  base: DataPlatform;
  user: User;
  clusters: Cluster[];
  clusterId: string;
}

function App(props: Boot) {
  const [clusters, setClusters] = useState(props.clusters);
  const [clusterId, setClusterIdState] = useState(props.clusterId);
  const [unread, setUnread] = useState(0);
  const client = useMemo(
    () => props.base.withOptions({ defaultHeaders: { 'x-cluster-id': clusterId } }),
    [props.base, clusterId],
  );
  const refreshUnread = useCallback(() => {
    props.base.notifications
      .page({ unread: true, limit: 1 })
      .then((list) => setUnread(list.unread))
      .catch(() => undefined);
  }, [props.base]);
  // The badge follows the notification stream; the 30 s refresh catches what the stream cannot tell (a
  // notification read in another tab) and covers the time the stream is down.
  useEffect(() => {
    const timer = setInterval(refreshUnread, 30_000);
    const stop = new AbortController();
    void followNotifications(props.base, stop.signal, refreshUnread);
    return () => {
      clearInterval(timer);
      stop.abort();
    };
  }, [props.base, refreshUnread]);
  const session: Session = {
    client,
    user: props.user,
    clusters,
    clusterId,
    setClusterId(id) {
      localStorage.setItem(CLUSTER_KEY, id);
      setClusterIdState(id);
    },
    async reloadClusters() {
      const page = await props.base.clusters.list({ limit: 100 });
      setClusters(page.data);
    },
    unread,
    refreshUnread,
  };
  return (
    <SessionContext.Provider value={session}>
      <Shell />
    </SessionContext.Provider>
  );
}

async function boot(root: HTMLElement) {
  const theme = storedTheme();
  if (theme) applyTheme(theme, false);
  const token = takeToken();
  if (!token) return goToSignIn();
  // The dashboard talks to the server it was served by, with the same client users install.
  const base = new DataPlatform({ baseUrl: location.origin, token, maxRetries: 1 });
  try {
    const [me, clusterPage, settings] = await Promise.all([
      base.auth.me(),
      base.clusters.list({ limit: 100 }),
      base.settings.get(),
    ]);
    const clusters = clusterPage.data;
    const remembered = localStorage.getItem(CLUSTER_KEY);
    const clusterId =
      clusters.find((cluster) => cluster._id === remembered)?._id ??
      settings.data.defaultClusterId ??
      clusters[0]?._id ??
      '';
    render(<App base={base} user={me.user} clusters={clusters} clusterId={clusterId} />, root);
  } catch (error) {
    root.textContent = `The dashboard could not start: ${describeError(error)}`;
  }
}

void boot(document.getElementById('app')!);
