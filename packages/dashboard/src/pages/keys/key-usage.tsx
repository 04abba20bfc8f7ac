import type { ApiKey } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { when } from '../../ui/format.js';
import { Pager } from '../../ui/pager.js';
import { Status } from '../../ui/status.js';
import { DataTable } from '../../ui/table.js';
import { useLoad } from '../../ui/use-load.js';

const LIMIT = 20;

/** A key's usage history, newest first: every request it made, allowed or denied. */
export function KeyUsage(props: { apiKey: ApiKey }) {
  const { client } = useSession();
  const [skip, setSkip] = useState(0);
  const [outcome, setOutcome] = useState<'' | 'success' | 'denied'>('');
  const usage = useLoad(
    () => client.keys.usage(props.apiKey._id, { limit: LIMIT, skip, ...(outcome ? { outcome } : {}) }),
    [client, props.apiKey._id, skip, outcome],
  );
  const entries = usage.data?.data ?? [];
  return (
    <section class="panel" aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage of {props.apiKey.name}</h2>
      <div class="field">
        <label for="usage-outcome">Outcome</label>
        <select
          id="usage-outcome"
          value={outcome}
          onChange={(event) => {
            setOutcome(event.currentTarget.value as typeof outcome);
            setSkip(0);
          }}
        >
          <option value="">All requests</option>
          <option value="success">Allowed</option>
          <option value="denied">Denied</option>
        </select>
      </div>
      <Status error={usage.error} />
      <DataTable
        caption={`Requests made with ${props.apiKey.name}, newest first`}
        columns={[
          { label: 'When', cell: (entry) => when(entry.timestamp) },
          { label: 'Request', cell: (entry) => <code>{`${entry.method} ${entry.path}`}</code> },
          { label: 'Status', cell: (entry) => entry.status },
          {
            label: 'Outcome',
            cell: (entry) => (
              <span class={entry.outcome === 'denied' ? 'status-failed' : 'status-ok'}>{entry.outcome}</span>
            ),
          },
          { label: 'Address', cell: (entry) => entry.ip },
        ]}
        rows={entries}
        rowKey={(entry) => `${entry.timestamp}-${entry.method}-${entry.path}-${entry.status}`}
        empty={usage.loading ? 'Loading…' : 'This key has not been used yet.'}
      />
      {usage.data ? (
        <Pager
          label="usage"
          total={usage.data.total}
          skip={skip}
          limit={LIMIT}
          shown={entries.length}
          onSkip={setSkip}
        />
      ) : null}
    </section>
  );
}
