import type { WebhookSubscriptionRecord } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { ConfirmButton } from '../../ui/dialog.js';
import { when } from '../../ui/format.js';
import { PageHeader, Section } from '../../ui/page.js';
import { SecretOnce } from '../../ui/secret.js';
import { Status } from '../../ui/status.js';
import { DataTable } from '../../ui/table.js';
import { useAction, useLoad } from '../../ui/use-load.js';
import { CreateWebhook } from './create-webhook.js';
import { Deliveries } from './deliveries.js';

/** Webhook subscriptions of the chosen cluster, their deliveries and attempts, tests, re-sends and secrets. */
export default function Webhooks() {
  const { client } = useSession();
  const webhooks = useLoad(() => client.webhooks.list(), [client]);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [selected, setSelected] = useState<WebhookSubscriptionRecord | null>(null);
  const [deliveriesVersion, setDeliveriesVersion] = useState(0);
  const action = useAction();
  // A subscription that `dp webhooks listen` streams to has no receiver to manage here.
  const rows = (webhooks.data?.data ?? []).filter((webhook) => webhook.delivery === 'http');

  return (
    <>
      <PageHeader
        title="Webhooks"
        intro="Receivers that get a signed POST for every document change they subscribe to."
      />
      {secret ? (
        <SecretOnce label={secret.label} secret={secret.value} onDone={() => setSecret(null)} />
      ) : null}
      <Status error={webhooks.error ?? action.error} notice={action.notice} />
      <DataTable
        caption="Webhook subscriptions of this cluster"
        columns={[
          { label: 'Receiver', cell: (webhook) => <code>{webhook.url}</code> },
          { label: 'Events', cell: (webhook) => webhook.events.join(', ') },
          { label: 'Collection', cell: (webhook) => webhook.collection ?? 'Every collection' },
          {
            label: 'State',
            cell: (webhook) => (
              <span class={webhook.active ? 'status-active' : 'status-paused'}>
                {webhook.active ? 'active' : 'disabled'}
              </span>
            ),
          },
          { label: 'Created', cell: (webhook) => when(webhook.createdAt) },
          {
            label: 'Actions',
            cell: (webhook) => (
              <div class="actions">
                <button
                  type="button"
                  aria-label={`Deliveries to ${webhook.url}`}
                  onClick={() => setSelected(webhook)}
                >
                  Deliveries
                </button>
                <button
                  type="button"
                  aria-label={`Send test event to ${webhook.url}`}
                  onClick={() =>
                    action.run(async () => {
                      const delivery = await client.webhooks.test(webhook._id);
                      setSelected(webhook);
                      setDeliveriesVersion((version) => version + 1);
                      return `Sent test event ${delivery.eventId}.`;
                    })
                  }
                >
                  Send test
                </button>
                <ConfirmButton
                  label="Rotate secret"
                  ariaLabel={`Rotate secret of ${webhook.url}`}
                  question="Make a new signing secret? The old one keeps signing for 24 hours, so the receiver can switch."
                  confirmLabel="Rotate secret"
                  onConfirm={() =>
                    action.run(async () => {
                      const rotated = await client.webhooks.rotateSecret(webhook._id);
                      setSecret({ label: `New signing secret of ${webhook.url}`, value: rotated.secret });
                      return `Rotated the secret; the old one works until ${when(rotated.previousSecretExpiresAt)}.`;
                    })
                  }
                />
                <ConfirmButton
                  label="Delete"
                  ariaLabel={`Delete the webhook to ${webhook.url}`}
                  danger
                  question={`Delete the subscription of ${webhook.url}? It gets no further events.`}
                  confirmLabel="Delete webhook"
                  onConfirm={() =>
                    action.run(async () => {
                      await client.webhooks.delete(webhook._id);
                      if (selected?._id === webhook._id) setSelected(null);
                      await webhooks.reload();
                      return `Deleted the webhook to ${webhook.url}.`;
                    })
                  }
                />
              </div>
            ),
          },
        ]}
        rows={rows}
        rowKey={(webhook) => webhook._id}
        busy={webhooks.loading}
        empty={webhooks.loading ? 'Loading…' : 'No webhooks yet.'}
      />
      {selected ? <Deliveries key={`${selected._id}-${deliveriesVersion}`} webhook={selected} /> : null}
      <Section title="Create a webhook">
        <CreateWebhook
          onCreated={(created) => {
            setSecret({ label: `Signing secret of ${created.url}`, value: created.secret });
            void webhooks.reload();
          }}
        />
      </Section>
    </>
  );
}
