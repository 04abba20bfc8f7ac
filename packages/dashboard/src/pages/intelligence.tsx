import type { Model, ModelCreateInCluster, PredictResult } from '@dataplatform/sdk';
import { useState } from 'preact/hooks';
import { useSession } from '../context.js';
import { ConfirmButton } from '../ui/dialog.js';
import { count, when } from '../ui/format.js';
import { PageHeader, Section } from '../ui/page.js';
import { Status } from '../ui/status.js';
import { DataTable } from '../ui/table.js';
import { useAction, useLoad } from '../ui/use-load.js';
import { TrainingProgress } from './training-progress.js';

const metricsText = (model: Model) =>
  Object.entries(model.metrics)
    .map(([name, value]) => `${name} ${typeof value === 'number' ? value.toFixed(3) : value}`)
    .join(', ') || '—';

/** Tries a ready model on one row typed in as JSON. */
function TryPrediction(props: { models: Model[] }) {
  const { client } = useSession();
  const ready = props.models.filter((model) => model.status === 'ready');
  const [modelId, setModelId] = useState('');
  const [row, setRow] = useState('{}');
  const [result, setResult] = useState<PredictResult | null>(null);
  const action = useAction();
  const model = ready.find((candidate) => candidate._id === modelId) ?? ready[0];
  return (
    <Section title="Try a prediction">
      {model ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void action.run(async () => {
              setResult(await client.intelligence.models.predict(model._id, { rows: [JSON.parse(row)] }));
            });
          }}
        >
          <div class="field">
            <label for="predict-model">Model</label>
            <select
              id="predict-model"
              value={model._id}
              onChange={(event) => setModelId(event.currentTarget.value)}
            >
              {ready.map((candidate) => (
                <option key={candidate._id} value={candidate._id}>
                  {candidate.name} ({candidate.task})
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="predict-row">Row (JSON)</label>
            <textarea
              id="predict-row"
              class="code short"
              spellcheck={false}
              value={row}
              aria-describedby="predict-row-hint"
              onInput={(event) => setRow(event.currentTarget.value)}
            />
            <p id="predict-row-hint" class="hint">
              Features: {model.features.join(', ')}.
            </p>
          </div>
          <button type="submit" class="primary" disabled={action.busy}>
            Predict
          </button>
          <Status error={action.error} />
          {result ? (
            <p role="status" data-testid="prediction">
              Prediction: <strong>{JSON.stringify(result.predictions[0])}</strong>
              {result.probabilities?.[0] ? ` (${JSON.stringify(result.probabilities[0])})` : ''}
            </p>
          ) : null}
        </form>
      ) : (
        <p>Train a model first; it can be tried once it is ready.</p>
      )}
    </Section>
  );
}

/** The intelligence engine: datasets (snapshots of a collection), models trained on them, and predictions. */
export default function Intelligence() {
  const { client, clusterId } = useSession();
  const datasets = useLoad(() => client.intelligence.datasets.list({ clusterId }), [client, clusterId]);
  const models = useLoad(() => client.intelligence.models.list({ clusterId }), [client, clusterId]);
  const [dataset, setDataset] = useState({ name: '', collection: '' });
  const [model, setModel] = useState<
    Pick<ModelCreateInCluster, 'name' | 'task'> & { target: string; datasetId: string }
  >({
    name: '',
    task: 'regression',
    target: '',
    datasetId: '',
  });
  const action = useAction();
  const refresh = async () => {
    await Promise.all([datasets.reload(), models.reload()]);
  };
  const readyDatasets = (datasets.data?.data ?? []).filter((d) => d.status === 'ready');
  return (
    <>
      <PageHeader
        title="Intelligence"
        intro="Snapshot a collection as a dataset, train a model on it, and ask it for predictions."
      >
        <button type="button" onClick={() => void refresh()}>
          Refresh progress
        </button>
      </PageHeader>
      <Status error={datasets.error ?? models.error ?? action.error} notice={action.notice} />
      <Section title="Datasets">
        <DataTable
          caption="Datasets of this cluster"
          columns={[
            { label: 'Name', cell: (d) => d.name },
            { label: 'From', cell: (d) => d.collection },
            { label: 'Status', cell: (d) => <span class={`status-${d.status}`}>{d.status}</span> },
            { label: 'Rows', cell: (d) => count(d.rowCount) },
            { label: 'Fields', cell: (d) => d.fields.map((f) => `${f.name}: ${f.type}`).join(', ') },
            {
              label: 'Actions',
              cell: (d) => (
                <ConfirmButton
                  label="Delete"
                  ariaLabel={`Delete dataset ${d.name}`}
                  danger
                  question={`Delete the dataset ${d.name}?`}
                  confirmLabel="Delete dataset"
                  onConfirm={() =>
                    action.run(async () => {
                      await client.intelligence.datasets.delete(d._id);
                      await refresh();
                      return `Deleted ${d.name}.`;
                    })
                  }
                />
              ),
            },
          ]}
          rows={datasets.data?.data ?? []}
          rowKey={(d) => d._id}
          empty={datasets.loading ? 'Loading…' : 'No datasets yet.'}
        />
        <form
          class="row"
          onSubmit={(event) => {
            event.preventDefault();
            void action.run(async () => {
              const created = await client.intelligence.datasets.create({ ...dataset, clusterId });
              await refresh();
              return `Building dataset ${created.name}.`;
            });
          }}
        >
          <div class="field">
            <label for="dataset-name">Dataset name</label>
            <input
              id="dataset-name"
              required
              value={dataset.name}
              onInput={(event) => setDataset({ ...dataset, name: event.currentTarget.value })}
            />
          </div>
          <div class="field">
            <label for="dataset-collection">From collection</label>
            <input
              id="dataset-collection"
              required
              value={dataset.collection}
              onInput={(event) => setDataset({ ...dataset, collection: event.currentTarget.value })}
            />
          </div>
          <div class="field">
            <button type="submit">Create dataset</button>
          </div>
        </form>
      </Section>
      <Section title="Models">
        <DataTable
          caption="Models of this cluster"
          columns={[
            { label: 'Name', cell: (m) => m.name },
            { label: 'Task', cell: (m) => `${m.task} (${m.algorithm})` },
            { label: 'Target', cell: (m) => m.target ?? '—' },
            { label: 'Status', cell: (m) => <span class={`status-${m.status}`}>{m.status}</span> },
            { label: 'Held-out metrics', cell: metricsText },
            { label: 'Created', cell: (m) => when(m.createdAt) },
          ]}
          rows={models.data?.data ?? []}
          rowKey={(m) => m._id}
          empty={models.loading ? 'Loading…' : 'No models yet.'}
        />
        <TrainingProgress models={models.data?.data ?? []} onTick={models.reload} />
        <form
          class="row"
          onSubmit={(event) => {
            event.preventDefault();
            void action.run(async () => {
              const created = await client.intelligence.models.create({
                name: model.name,
                task: model.task,
                datasetId: model.datasetId || readyDatasets[0]!._id,
                ...(model.target ? { target: model.target } : {}),
                clusterId,
              });
              await refresh();
              return `Training ${created.name}.`;
            });
          }}
        >
          <div class="field">
            <label for="model-name">Model name</label>
            <input
              id="model-name"
              required
              value={model.name}
              onInput={(event) => setModel({ ...model, name: event.currentTarget.value })}
            />
          </div>
          <div class="field">
            <label for="model-dataset">Dataset</label>
            <select
              id="model-dataset"
              value={model.datasetId}
              onChange={(event) => setModel({ ...model, datasetId: event.currentTarget.value })}
            >
              {readyDatasets.map((d) => (
                <option key={d._id} value={d._id}>
                  {d.name}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="model-task">Task</label>
            <select
              id="model-task"
              value={model.task}
              onChange={(event) => setModel({ ...model, task: event.currentTarget.value as Model['task'] })}
            >
              <option value="regression">Regression</option>
              <option value="classification">Classification</option>
              <option value="clustering">Clustering</option>
            </select>
          </div>
          <div class="field">
            <label for="model-target">Target field</label>
            <input
              id="model-target"
              value={model.target}
              onInput={(event) => setModel({ ...model, target: event.currentTarget.value })}
            />
          </div>
          <div class="field">
            <button type="submit" disabled={readyDatasets.length === 0}>
              Train model
            </button>
          </div>
        </form>
      </Section>
      <TryPrediction models={models.data?.data ?? []} />
    </>
  );
}
