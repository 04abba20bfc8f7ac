import { parentPort } from 'node:worker_threads';
import { type TrainingRequest, train } from './train.js';

/** A training thread: fits one model and answers its result (or the error's message), then the runner ends it. */
parentPort!.once('message', (request: TrainingRequest) => {
  try {
    parentPort!.postMessage({ ok: true, result: train(request) });
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: (error as Error).message });
  }
});
