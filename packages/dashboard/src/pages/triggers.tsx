import type { Trigger, TriggerCreate } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../context.js';
import { ConfirmButton } from '../ui/dialog.js';
import { when } from '../ui/format.js';
import { PageHeader, Section } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { DataTable } from '../ui/table.js';
import { useAction, useLoad } from '../ui/use-load.js';

const describeSource = (trigger: Trigger) =>
  trigger.source.type === 'schedule'
    ? `Schedule ${trigger.source.cron}${trigger.source.timezone ? ` (${trigger.source.timezone})` : ''}`
    : `${trigger.source.events.join(', ')} in ${trigger.source.collection ?? 'every collection'}`;

/** The runs of one trigger, newest first. */
function Runs(props: { trigger: Trigger }) {
  const { client } = useSession();
  const runs = useLoad(() => client.triggers.runs(props.trigger._id, { limit: 20 }), [client, props.trigger]);
  return (
    <Section title={`Runs of ${props.trigger.name}`} id="trigger-runs">
      <Status error={runs.error} />
      <button type="button" onClick={() => void runs.reload()}>
        Refresh runs
      </button>
      <DataTable
        caption={`Runs of ${props.trigger.name}, newest first`}
        columns={[
          { label: 'Started', cell: (run) => when(run.startedAt) },
          { label: 'Status', cell: (run) => <span class={`status-${run.status}`}>{run.status}</span> },
          { label: 'Duration', cell: (run) => (run.durationMs === null ? '—' : `${run.durationMs} ms`) },
          { label: 'Error', cell: (run) => run.error ?? '' },
        ]}
        rows={runs.data?.data ?? []}
        rowKey={(run) => run._id}
        empty={runs.loading ? 'Loading…' : 'No runs yet.'}
      />
    </Section>
  );
}

/** The form of a new trigger: on document events or on a schedule, calling a function of the cluster. */
function CreateTrigger(props: { onCreated(): void }) {
  const { client, clusterId } = useSession();
  const functions = useLoad(() => client.functions.list({ clusterId, limit: 100 }), [client, clusterId]);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'document' | 'schedule'>('document');
  const [collection, setCollection] = useState('');
  const [cron, setCron] = useState('*/5 * * * *');
  const [fn, setFn] = useState('');
  const action = useAction();
  const choices = functions.data?.data ?? [];
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          const source: TriggerCreate['source'] =
            kind === 'schedule'
              ? { type: 'schedule', cron }
              : { type: 'document', events: ['*'], ...(collection ? { collection } : {}) };
          const created = await client.triggers.create({
            name,
            source,
            target: { function: fn || choices[0]!._id },
            clusterId,
          });
          setName('');
          props.onCreated();
          return `Created ${created.name}.`;
        });
      }}
    >
      <div class="field">
        <label for="trigger-name">Name</label>
        <input
          id="trigger-name"
          required
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="trigger-kind">Runs on</label>
        <select
          id="trigger-kind"
          value={kind}
          onChange={(event) => setKind(event.currentTarget.value as typeof kind)}
        >
          <option value="document">Document changes</option>
          <option value="schedule">A schedule</option>
        </select>
      </div>
      {kind === 'document' ? (
        <div class="field">
          <label for="trigger-collection">Collection (optional)</label>
          <input
            id="trigger-collection"
            value={collection}
            onInput={(event) => setCollection(event.currentTarget.value)}
          />
        </div>
      ) : (
        <div class="field">
          <label for="trigger-cron">Cron expression</label>
          <input
            id="trigger-cron"
            required
            value={cron}
            onInput={(event) => setCron(event.currentTarget.value)}
          />
        </div>
      )}
      <div class="field">
        <label for="trigger-function">Function</label>
        <select id="trigger-function" value={fn} onChange={(event) => setFn(event.currentTarget.value)}>
          {choices.map((choice) => (
            <option key={choice._id} value={choice._id}>
              {choice.name}
            </option>
          ))}
        </select>
        {functions.data && choices.length === 0 ? <p class="hint">Create a function first.</p> : null}
      </div>
      <button type="submit" class="primary" disabled={action.busy || choices.length === 0}>
        Create trigger
      </button>
      <Status error={action.error} notice={action.notice} />
    </form>
  );
}

/** Triggers of the chosen cluster: what fires them, pause and resume, a manual run, their runs. */
export default function Triggers() {
  const { client, clusterId } = useSession();
  const triggers = useLoad(() => client.triggers.list({ clusterId, limit: 100 }), [client, clusterId]);
  const [selected, setSelected] = useState<Trigger | null>(null);
  const action = useAction();
  const act = (work: () => Promise<string>) =>
    action.run(async () => {
      const message = await work();
      await triggers.reload();
      return message;
    });
  return (
    <>
      <PageHeader title="Triggers" intro="Run a function on every document change or on a schedule." />
      <Status error={triggers.error ?? action.error} notice={action.notice} />
      <DataTable
        caption="Triggers of this cluster"
        columns={[
          { label: 'Name', cell: (tr) => tr.name },
          { label: 'Fires on', cell: describeSource },
          {
            label: 'State',
            cell: (tr) => (
              <span class={tr.active ? 'status-active' : 'status-paused'}>
                {tr.active ? 'active' : 'paused'}
              </span>
            ),
          },
          { label: 'Last run', cell: (tr) => when(tr.lastRunAt) },
          {
            label: 'Actions',
            cell: (tr) => (
              <div class="actions">
                <button type="button" aria-label={`Runs of ${tr.name}`} onClick={() => setSelected(tr)}>
                  Runs
                </button>
                <button
                  type="button"
                  aria-label={`Run ${tr.name} now`}
                  onClick={() =>
                    act(async () => {
                      await client.triggers.run(tr._id);
                      setSelected({ ...tr });
                      return `Started a run of ${tr.name}.`;
                    })
                  }
                >
                  Run now
                </button>
                <button
                  type="button"
                  aria-label={`${tr.active ? 'Pause' : 'Resume'} ${tr.name}`}
                  onClick={() =>
                    act(async () => {
                      const changed = tr.active
                        ? await client.triggers.pause(tr._id)
                        : await client.triggers.resume(tr._id);
                      return `${changed.name} is ${changed.active ? 'active' : 'paused'}.`;
                    })
                  }
                >
                  {tr.active ? 'Pause' : 'Resume'}
                </button>
                <ConfirmButton
                  label="Delete"
                  ariaLabel={`Delete trigger ${tr.name}`}
                  danger
                  question={`Delete the trigger ${tr.name}?`}
                  confirmLabel="Delete trigger"
                  onConfirm={() =>
                    act(async () => {
                      await client.triggers.delete(tr._id);
                      if (selected?._id === tr._id) setSelected(null);
                      return `Deleted ${tr.name}.`;
                    })
                  }
                />
              </div>
            ),
          },
        ]}
        rows={triggers.data?.data ?? []}
        rowKey={(tr) => tr._id}
        busy={triggers.loading}
        empty={triggers.loading ? 'Loading…' : 'No triggers yet.'}
      />
      {selected ? <Runs trigger={selected} /> : null}
      <Section title="Create a trigger">
        <CreateTrigger onCreated={() => void triggers.reload()} />
      </Section>
    </>
  );
}
