import type { ApiKey } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { ConfirmButton } from '../../ui/dialog.js';
import { when } from '../../ui/format.js';
import { PageHeader, Section } from '../../ui/page.js';
import { SecretOnce } from '../../ui/secret.js';
import { Status } from '../../ui/status.js';
import { DataTable } from '../../ui/table.js';
import { useAction, useLoad } from '../../ui/use-load.js';
import { CreateKey } from './create-key.js';
import { KeyUsage } from './key-usage.js';

/** API keys of the chosen cluster: create (the secret shown once), pause, resume, rotate, delete, and usage. */
export default function Keys() {
  const { client, clusterId } = useSession();
  const keys = useLoad(() => client.keys.list(), [client]);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [usageOf, setUsageOf] = useState<ApiKey | null>(null);
  const action = useAction();
  const mine = (keys.data?.data ?? []).filter((key) => key.clusterId === clusterId);

  const act = (work: () => Promise<string>) =>
    action.run(async () => {
      const message = await work();
      await keys.reload();
      return message;
    });

  return (
    <>
      <PageHeader
        title="API keys"
        intro="Keys let programs reach this cluster's data. Secrets are stored as hashes only."
      />
      {secret ? (
        <SecretOnce label={secret.label} secret={secret.value} onDone={() => setSecret(null)} />
      ) : null}
      <Status error={keys.error ?? action.error} notice={action.notice} />
      <DataTable
        caption="Keys of this cluster"
        columns={[
          { label: 'Name', cell: (key) => key.name },
          { label: 'Prefix', cell: (key) => <code>{key.prefix}</code> },
          { label: 'Scopes', cell: (key) => key.scopes.join(', ') },
          { label: 'Status', cell: (key) => <span class={`status-${key.status}`}>{key.status}</span> },
          { label: 'Last used', cell: (key) => when(key.lastUsedAt) },
          { label: 'Expires', cell: (key) => (key.expiresAt ? when(key.expiresAt) : 'Never') },
          {
            label: 'Actions',
            cell: (key) => (
              <div class="actions">
                {key.status === 'paused' ? (
                  <button
                    type="button"
                    aria-label={`Resume key ${key.name}`}
                    onClick={() =>
                      act(async () => {
                        await client.keys.resume(key._id);
                        return `Resumed ${key.name}.`;
                      })
                    }
                  >
                    Resume
                  </button>
                ) : (
                  <button
                    type="button"
                    aria-label={`Pause key ${key.name}`}
                    disabled={key.status !== 'active'}
                    onClick={() =>
                      act(async () => {
                        await client.keys.pause(key._id);
                        return `Paused ${key.name}.`;
                      })
                    }
                  >
                    Pause
                  </button>
                )}
                <ConfirmButton
                  label="Rotate"
                  ariaLabel={`Rotate key ${key.name}`}
                  disabled={key.status !== 'active'}
                  question={`Rotate ${key.name}? Its current secret stops working at once.`}
                  confirmLabel="Rotate key"
                  onConfirm={() =>
                    act(async () => {
                      const rotated = await client.keys.rotate(key._id);
                      setSecret({ label: `New secret of ${key.name}`, value: rotated.secret });
                      return `Rotated ${key.name}.`;
                    })
                  }
                />
                <button type="button" aria-label={`Usage of key ${key.name}`} onClick={() => setUsageOf(key)}>
                  Usage
                </button>
                <ConfirmButton
                  label="Delete"
                  ariaLabel={`Delete key ${key.name}`}
                  danger
                  question={`Delete ${key.name}? Programs using it get 401 at once, and its usage history goes too.`}
                  confirmLabel="Delete key"
                  onConfirm={() =>
                    act(async () => {
                      await client.keys.delete(key._id);
                      if (usageOf?._id === key._id) setUsageOf(null);
                      return `Deleted ${key.name}.`;
                    })
                  }
                />
              </div>
            ),
          },
        ]}
        rows={mine}
        rowKey={(key) => key._id}
        busy={keys.loading}
        empty={keys.loading ? 'Loading…' : 'No keys for this cluster yet.'}
      />
      {usageOf ? <KeyUsage key={usageOf._id} apiKey={usageOf} /> : null}
      <Section title="Create a key">
        <CreateKey
          onCreated={(created) => {
            setSecret({ label: `Secret of ${created.key.name}`, value: created.secret });
            void keys.reload();
          }}
        />
      </Section>
    </>
  );
}
