import type { Job, Model } from '@dataplatform/sdk';
import { useEffect, useState } from 'preact/hooks';
import { useSession } from '../context.js';
import { count } from '../ui/format.js';

/** How often the page asks again while a model trains. */
const POLL_MS = 1_000;

/** The newest training job of each model, by model id, from a page of the user's jobs (newest first). */
function trainingJobs(jobs: readonly Job[]): Map<string, Job> {
  const byModel = new Map<string, Job>();
  for (const job of jobs) {
    const modelId = job.kind === 'model.train' ? (job.input as { modelId?: string }).modelId : undefined;
    if (modelId && !byModel.has(modelId)) byModel.set(modelId, job);
  }
  return byModel;
}

/**
 * A progress bar for each model still training, from its `model.train` job, asked for again every second (with
 * the models, through `onTick`) until none is training. A job that does not know its total yet shows a bar
 * without a value, which browsers and screen readers present as busy.
 */
export function TrainingProgress(props: { models: readonly Model[]; onTick(): Promise<void> }) {
  const { client } = useSession();
  const training = props.models.filter((model) => model.status === 'training');
  const [jobs, setJobs] = useState<Map<string, Job>>(new Map());
  const waiting = training.length > 0;
  useEffect(() => {
    if (!waiting) return;
    let stopped = false;
    const tick = async () => {
      try {
        const page = await client.jobs.list({ limit: 100 });
        if (!stopped) setJobs(trainingJobs(page.data));
        await props.onTick();
      } catch {
        // The next tick tries again; the page's status region shows a failing model list.
      }
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    let timer = setTimeout(tick, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [client, waiting]);
  if (!waiting) return null;
  return (
    <div class="training" aria-live="polite">
      {training.map((model) => {
        const job = jobs.get(model._id);
        const total = job?.progress.total ?? null;
        const done = job?.progress.done ?? 0;
        const id = `training-${model._id}`;
        return (
          <div class="field" key={model._id}>
            <label for={id}>
              Training {model.name}
              {job ? `: ${job.status}` : ''}
              {total ? `, ${count(done)} of ${count(total)} rows` : ''}
            </label>
            {total ? <progress id={id} max={total} value={done} /> : <progress id={id} />}
          </div>
        );
      })}
    </div>
  );
}
