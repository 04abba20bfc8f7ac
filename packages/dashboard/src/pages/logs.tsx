import type { RequestLogParams } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../context.js';
import { cell, when } from '../ui/format.js';
import { PageHeader, Section } from '../ui/page.js';
import { Pager } from '../ui/pager.js';
import { Status } from '../ui/status.js';
import { DataTable } from '../ui/table.js';
import { useLoad } from '../ui/use-load.js';

const LIMIT = 25;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

interface Filters {
  status: string;
  method: '' | (typeof METHODS)[number];
  path: string;
}

/** The request log of the chosen cluster, filtered by status, method and path, newest first. */
function RequestLog() {
  const { client, clusterId } = useSession();
  const [draft, setDraft] = useState<Filters>({ status: '', method: '', path: '' });
  const [filters, setFilters] = useState<Filters>(draft);
  const [skip, setSkip] = useState(0);
  const requests = useLoad(() => {
    const params: RequestLogParams = { clusterId, limit: LIMIT, skip };
    if (filters.status) params.status = filters.status;
    if (filters.method) params.method = filters.method;
    if (filters.path) params.path = filters.path;
    return client.logs.requests.list(params);
  }, [client, clusterId, filters, skip]);
  const rows = requests.data?.data ?? [];
  return (
    <Section title="Requests">
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault();
          setSkip(0);
          setFilters(draft);
        }}
      >
        <div class="field">
          <label for="log-status">Status</label>
          <input
            id="log-status"
            placeholder="404 or 4xx"
            size={8}
            value={draft.status}
            onInput={(event) => setDraft({ ...draft, status: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="log-method">Method</label>
          <select
            id="log-method"
            value={draft.method}
            onChange={(event) =>
              setDraft({ ...draft, method: event.currentTarget.value as Filters['method'] })
            }
          >
            <option value="">Any</option>
            {METHODS.map((method) => (
              <option key={method}>{method}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="log-path">Path starts with</label>
          <input
            id="log-path"
            placeholder="/api/v1/data/"
            value={draft.path}
            onInput={(event) => setDraft({ ...draft, path: event.currentTarget.value })}
          />
        </div>
        <div class="field">
          <button type="submit">Filter requests</button>
        </div>
      </form>
      <Status error={requests.error} />
      <DataTable
        caption="Requests, newest first"
        columns={[
          { label: 'When', cell: (r) => when(r.t) },
          { label: 'Request', cell: (r) => <code>{`${r.method} ${cell(r.path, 60)}`}</code> },
          {
            label: 'Status',
            cell: (r) => <span class={r.status >= 400 ? 'status-failed' : undefined}>{r.status}</span>,
          },
          { label: 'Duration', cell: (r) => `${r.durationMs} ms` },
          { label: 'Credential', cell: (r) => (r.keyId ? `key ${r.keyId}` : r.userId ? 'session' : '—') },
          { label: 'Request id', cell: (r) => <code>{r.requestId}</code> },
        ]}
        rows={rows}
        rowKey={(r) => r._id}
        busy={requests.loading}
        empty={requests.loading ? 'Loading…' : 'No requests match.'}
      />
      {requests.data ? (
        <Pager
          label="requests"
          total={requests.data.total}
          skip={skip}
          limit={LIMIT}
          shown={rows.length}
          onSkip={setSkip}
        />
      ) : null}
    </Section>
  );
}

/** What happened to the account: sign-ins, plan changes, passkeys, newest first. */
function ActivityLog() {
  const { client } = useSession();
  const [skip, setSkip] = useState(0);
  const activity = useLoad(() => client.logs.activity({ limit: LIMIT, skip }), [client, skip]);
  const rows = activity.data?.data ?? [];
  return (
    <Section title="Account activity">
      <Status error={activity.error} />
      <DataTable
        caption="Account activity, newest first"
        columns={[
          { label: 'When', cell: (a) => when(a.createdAt) },
          { label: 'What', cell: (a) => <code>{a.action}</code> },
          { label: 'Address', cell: (a) => a.ip },
          { label: 'Details', cell: (a) => (Object.keys(a.details).length > 0 ? cell(a.details) : '') },
        ]}
        rows={rows}
        rowKey={(a) => a._id}
        busy={activity.loading}
        empty={activity.loading ? 'Loading…' : 'No activity yet.'}
      />
      {activity.data ? (
        <Pager
          label="activity"
          total={activity.data.total}
          skip={skip}
          limit={LIMIT}
          shown={rows.length}
          onSkip={setSkip}
        />
      ) : null}
    </Section>
  );
}

/** Request and activity logs. */
export default function Logs() {
  return (
    <>
      <PageHeader title="Logs" intro="Every request to this cluster, and what happened to your account." />
      <RequestLog />
      <ActivityLog />
    </>
  );
}
