import type { DataPlatform } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../context.js';
import { ConfirmButton } from '../ui/dialog.js';
import { bytes, count, when } from '../ui/format.js';
import { PageHeader, Section } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { DataTable } from '../ui/table.js';
import { useAction, useLoad } from '../ui/use-load.js';

/** A backup record (the SDK names its methods' answers, not this type). */
type Backup = Awaited<ReturnType<DataPlatform['backups']['get']>>;

/** Saves a backup's archive through the browser's own download (the archive never goes through a page). */
async function download(response: Response, backup: Backup) {
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `backup-${backup._id}.ndjson.gz`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Schedule() {
  const { client, clusterId } = useSession();
  const schedule = useLoad(() => client.backups.getSchedule({ clusterId }), [client, clusterId]);
  const [cron, setCron] = useState<string | null>(null);
  const [retain, setRetain] = useState<string | null>(null);
  const action = useAction();
  const current = schedule.data;
  return (
    <Section title="Schedule">
      <Status error={schedule.error ?? action.error} notice={action.notice} />
      {current ? (
        <form
          class="row"
          onSubmit={(event) => {
            event.preventDefault();
            void action.run(async () => {
              const saved = await client.backups.setSchedule({
                clusterId,
                cron: (cron ?? current.cron ?? '') || null,
                retain: Number(retain ?? current.retain ?? 7),
              });
              await schedule.reload();
              return saved.cron
                ? `Backups run on ${saved.cron}; next at ${when(saved.nextRunAt)}.`
                : 'No scheduled backups.';
            });
          }}
        >
          <div class="field">
            <label for="backup-cron">When (cron, UTC)</label>
            <input
              id="backup-cron"
              placeholder="0 3 * * *"
              value={cron ?? current.cron ?? ''}
              aria-describedby="backup-cron-hint"
              onInput={(event) => setCron(event.currentTarget.value)}
            />
            <p id="backup-cron-hint" class="hint">
              Empty for no schedule. Next run: {when(current.nextRunAt)}.
            </p>
          </div>
          <div class="field">
            <label for="backup-retain">Backups kept</label>
            <input
              id="backup-retain"
              type="number"
              min={1}
              value={retain ?? String(current.retain ?? 7)}
              onInput={(event) => setRetain(event.currentTarget.value)}
            />
          </div>
          <div class="field">
            <button type="submit">Save schedule</button>
          </div>
        </form>
      ) : null}
    </Section>
  );
}

/** Backups of the chosen cluster: take one, download it, restore it (after confirming), delete it, schedule them. */
export default function Backups() {
  const { client, clusterId, clusters } = useSession();
  const backups = useLoad(() => client.backups.list({ clusterId }), [client, clusterId]);
  const action = useAction();
  const name = (id: string) => clusters.find((cluster) => cluster._id === id)?.name ?? id;
  const act = (work: () => Promise<string>) =>
    action.run(async () => {
      const message = await work();
      await backups.reload();
      return message;
    });
  return (
    <>
      <PageHeader
        title="Backups"
        intro="Archives of this cluster's collections, documents, schemas and indexes (never keys or secrets)."
      >
        <button type="button" onClick={() => void backups.reload()}>
          Refresh backups
        </button>
        <button
          type="button"
          class="primary"
          disabled={action.busy}
          onClick={() =>
            act(async () => `Backup ${(await client.backups.create({ clusterId }))._id} started.`)
          }
        >
          Back up now
        </button>
      </PageHeader>
      <Status error={backups.error ?? action.error} notice={action.notice} />
      <DataTable
        caption="Backups of this cluster, newest first"
        columns={[
          { label: 'Started', cell: (b) => when(b.createdAt) },
          { label: 'Status', cell: (b) => <span class={`status-${b.status}`}>{b.status}</span> },
          { label: 'Documents', cell: (b) => count(b.documentCount) },
          { label: 'Size', cell: (b) => bytes(b.sizeBytes) },
          { label: 'Finished', cell: (b) => when(b.completedAt) },
          {
            label: 'Actions',
            cell: (b) => (
              <div class="actions">
                <button
                  type="button"
                  aria-label={`Download backup ${b._id}`}
                  disabled={b.status !== 'succeeded'}
                  onClick={() =>
                    action.run(async () => {
                      await download(await client.backups.download(b._id), b);
                      return `Downloading backup ${b._id}.`;
                    })
                  }
                >
                  Download
                </button>
                <ConfirmButton
                  label="Restore"
                  ariaLabel={`Restore backup ${b._id}`}
                  danger
                  disabled={b.status !== 'succeeded'}
                  question={`Restore the backup of ${when(b.createdAt)} into ${name(b.clusterId)}? Every collection in it replaces the cluster's collection of the same name.`}
                  confirmLabel="Restore backup"
                  onConfirm={() =>
                    act(async () => `Restore started as job ${(await client.backups.restore(b._id))._id}.`)
                  }
                />
                <ConfirmButton
                  label="Delete"
                  ariaLabel={`Delete backup ${b._id}`}
                  danger
                  question={`Delete the backup of ${when(b.createdAt)}? Its archive is gone for good.`}
                  confirmLabel="Delete backup"
                  onConfirm={() =>
                    act(async () => {
                      await client.backups.delete(b._id);
                      return `Deleted backup ${b._id}.`;
                    })
                  }
                />
              </div>
            ),
          },
        ]}
        rows={backups.data?.data ?? []}
        rowKey={(b) => b._id}
        busy={backups.loading}
        empty={backups.loading ? 'Loading…' : 'No backups yet.'}
      />
      <Schedule />
    </>
  );
}
