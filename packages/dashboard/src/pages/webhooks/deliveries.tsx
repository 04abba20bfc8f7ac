import type {
  WebhookDeliveryRecord,
  WebhookDeliveryStatus,
  WebhookSubscriptionRecord,
} from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { when } from '../../ui/format.js';
import { Pager } from '../../ui/pager.js';
import { Status } from '../../ui/status.js';
import { DataTable } from '../../ui/table.js';
import { useAction, useLoad } from '../../ui/use-load.js';

const LIMIT = 20;

/** Every attempt of one delivery, first to last. */
function Attempts(props: { delivery: WebhookDeliveryRecord }) {
  const { client } = useSession();
  const { delivery } = props;
  const attempts = useLoad(
    () => client.webhooks.attempts(delivery.webhookId, delivery._id),
    [client, delivery],
  );
  return (
    <>
      <Status error={attempts.error} />
      <DataTable
        caption={`Attempts of delivery ${delivery._id}`}
        columns={[
          { label: 'Attempt', cell: (attempt) => attempt.attempt },
          { label: 'Started', cell: (attempt) => when(attempt.startedAt) },
          {
            label: 'Outcome',
            cell: (attempt) => <span class={`status-${attempt.status}`}>{attempt.status}</span>,
          },
          { label: 'Answer', cell: (attempt) => attempt.responseStatus ?? '—' },
          { label: 'Duration', cell: (attempt) => `${attempt.durationMs} ms` },
          { label: 'Error', cell: (attempt) => attempt.error ?? '' },
          { label: 'Next attempt', cell: (attempt) => when(attempt.nextAttemptAt) },
        ]}
        rows={attempts.data?.data ?? []}
        rowKey={(attempt) => attempt._id}
        empty={attempts.loading ? 'Loading…' : 'No attempt yet.'}
      />
    </>
  );
}

/** A subscription's deliveries, newest first, with their attempts and a way to send one again. */
export function Deliveries(props: { webhook: WebhookSubscriptionRecord }) {
  const { client } = useSession();
  const { webhook } = props;
  const [skip, setSkip] = useState(0);
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [open, setOpen] = useState<WebhookDeliveryRecord | null>(null);
  const action = useAction();
  const deliveries = useLoad(
    () => client.webhooks.deliveries(webhook._id, { limit: LIMIT, skip, ...(status ? { status } : {}) }),
    [client, webhook._id, skip, status],
  );
  const rows = deliveries.data?.data ?? [];
  return (
    <section class="panel" aria-labelledby="deliveries-heading">
      <div class="page-header">
        <h2 id="deliveries-heading">Deliveries to {webhook.url}</h2>
        <div class="actions">
          <label>
            <span class="visually-hidden">Delivery status</span>
            <select
              value={status}
              onChange={(event) => {
                setStatus(event.currentTarget.value as WebhookDeliveryStatus | '');
                setSkip(0);
              }}
            >
              <option value="">Every status</option>
              <option value="pending">Pending</option>
              <option value="succeeded">Succeeded</option>
              <option value="failed">Failed</option>
            </select>
          </label>
          <button type="button" onClick={() => void deliveries.reload()}>
            Refresh deliveries
          </button>
        </div>
      </div>
      <Status error={deliveries.error ?? action.error} notice={action.notice} />
      <DataTable
        caption={`Deliveries to ${webhook.url}, newest first`}
        columns={[
          { label: 'Created', cell: (delivery) => when(delivery.createdAt) },
          { label: 'Event', cell: (delivery) => <code>{delivery.eventType}</code> },
          { label: 'Document', cell: (delivery) => `${delivery.collection}/${delivery.documentId}` },
          {
            label: 'Status',
            cell: (delivery) => <span class={`status-${delivery.status}`}>{delivery.status}</span>,
          },
          { label: 'Attempts', cell: (delivery) => delivery.attempts },
          {
            label: 'Last answer',
            cell: (delivery) => delivery.lastResponseStatus ?? delivery.lastError ?? '—',
          },
          {
            label: 'Actions',
            cell: (delivery) => (
              <div class="actions">
                <button
                  type="button"
                  aria-label={`Attempts of delivery ${delivery._id}`}
                  aria-expanded={open?._id === delivery._id}
                  onClick={() => setOpen(open?._id === delivery._id ? null : delivery)}
                >
                  Attempts
                </button>
                <button
                  type="button"
                  aria-label={`Resend delivery ${delivery._id}`}
                  disabled={delivery.status === 'streamed'}
                  onClick={() =>
                    action.run(async () => {
                      await client.webhooks.resend(webhook._id, delivery._id);
                      await deliveries.reload();
                      return `Sent delivery ${delivery._id} again.`;
                    })
                  }
                >
                  Resend
                </button>
              </div>
            ),
          },
        ]}
        rows={rows}
        rowKey={(delivery) => delivery._id}
        empty={
          deliveries.loading ? 'Loading…' : 'No deliveries yet: change a document, or send a test event.'
        }
      />
      {deliveries.data ? (
        <Pager
          label="deliveries"
          total={deliveries.data.total}
          skip={skip}
          limit={LIMIT}
          shown={rows.length}
          onSkip={setSkip}
        />
      ) : null}
      {open ? <Attempts key={`${open._id}-${open.attempts}`} delivery={open} /> : null}
    </section>
  );
}
