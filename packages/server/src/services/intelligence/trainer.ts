import { startScriptWorker } from '../../worker-script.js';
import type { TrainingRequest, TrainingResult } from './train.js';

/** Why training failed inside the thread: the algorithm's own message, shown on the model. */
export class TrainingFailed extends Error {}

/**
 * Trains one model on a thread of its own, so the event loop keeps serving requests while a model is fitted;
 * the thread ends with the training.
 */
export async function trainOffThread(request: TrainingRequest): Promise<TrainingResult> {
  const worker = await startScriptWorker(
    new URL('./training-worker.js', import.meta.url),
    new URL('./training-worker.ts', import.meta.url),
  );
  try {
    const answer = await new Promise<{ ok: true; result: TrainingResult } | { ok: false; message: string }>(
      (resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`training thread exited with code ${code}`)));
        worker.postMessage(request);
      },
    );
    if (!answer.ok) throw new TrainingFailed(answer.message);
    return answer.result;
  } finally {
    await worker.terminate();
  }
}
