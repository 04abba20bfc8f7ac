import { useSession } from '../context.js';
import { href, onLinkClick } from '../router.js';
import { bytes, count } from '../ui/format.js';
import { PageHeader } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';

/** The chosen cluster at a glance: its totals, and the ways into the areas people use most. */
export default function Overview() {
  const { client, clusterId, clusters } = useSession();
  const cluster = clusters.find((candidate) => candidate._id === clusterId);
  const summary = useLoad(() => client.metrics.summary(clusterId), [client, clusterId]);
  const s = summary.data;
  const rate = s?.webhookSuccessRate;
  return (
    <>
      <PageHeader
        title="Overview"
        intro={cluster ? `Cluster ${cluster.name} in ${cluster.region}, ${cluster.tier} tier.` : undefined}
      />
      <Status error={summary.error} />
      {s ? (
        <dl class="cards">
          <div class="card">
            <dt>Documents</dt>
            <dd>{count(s.documents)}</dd>
          </div>
          <div class="card">
            <dt>Collections</dt>
            <dd>{count(s.collections)}</dd>
          </div>
          <div class="card">
            <dt>Storage</dt>
            <dd>{bytes(s.storageBytes)}</dd>
          </div>
          <div class="card">
            <dt>API keys</dt>
            <dd>{count(s.keys)}</dd>
          </div>
          <div class="card">
            <dt>Requests today</dt>
            <dd>{count(s.requestsToday)}</dd>
          </div>
          <div class="card">
            <dt>Function runs</dt>
            <dd>{count(s.functionInvocations)}</dd>
          </div>
          <div class="card">
            <dt>Webhook success</dt>
            <dd>{rate === null || rate === undefined ? '—' : `${Math.round(rate * 100)}%`}</dd>
          </div>
        </dl>
      ) : (
        <p aria-busy="true">Loading the totals…</p>
      )}
      <section class="panel" aria-labelledby="start-heading">
        <h2 id="start-heading">Start here</h2>
        <ul>
          <li>
            <a href={href('/documents')} onClick={onLinkClick}>
              Browse and edit documents
            </a>
            , or ask them with SQL.
          </li>
          <li>
            <a href={href('/keys')} onClick={onLinkClick}>
              Create an API key
            </a>{' '}
            for a program.
          </li>
          <li>
            <a href={href('/webhooks')} onClick={onLinkClick}>
              Subscribe a webhook
            </a>{' '}
            to document changes.
          </li>
          <li>
            <a href={href('/metrics')} onClick={onLinkClick}>
              See requests and latency
            </a>{' '}
            as charts.
          </li>
        </ul>
      </section>
    </>
  );
}
