import { parentPort } from 'node:worker_threads';
import { planBatch } from './batch-plan.js';

/** The planner's thread: parses and checks large batch bodies while the main thread writes earlier ones. */
parentPort!.on(
  'message',
  ({ id, raw, documentLimit }: { id: number; raw: string; documentLimit: number }) => {
    parentPort!.postMessage({ id, plan: planBatch(raw, documentLimit) });
  },
);
