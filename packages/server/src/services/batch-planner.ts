import type { Worker } from 'node:worker_threads';
import { startScriptWorker } from '../worker-script.js';
import { type BatchPlan, planBatch } from './batch-plan.js';

/**
 * Bodies from this size up are planned on the planner's thread. Below it the hop between threads costs more
 * than the parse it saves; above it (about 200 ordinary documents) the parse is most of a batch's CPU time.
 */
export const PLAN_OFF_THREAD_FROM = 64 * 1024;

type Waiter = { resolve: (plan: BatchPlan) => void; reject: (error: Error) => void };

/**
 * Turns batch bodies into plans. A large body is parsed, checked and serialized on a worker thread, so on a
 * machine with two cores the event loop writes one batch to storage while the next is being parsed: batches run
 * at the speed of the storage engine rather than of JSON.parse. The thread starts on first use.
 */
export class BatchPlanner {
  private worker: Promise<Worker> | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiter>();

  /** `documentLimit`: the most bytes one document may take, the body limit of the single-document routes. */
  constructor(
    private readonly documentLimit: number,
    private readonly offThreadFrom = PLAN_OFF_THREAD_FROM,
  ) {}

  async plan(raw: string): Promise<BatchPlan> {
    const { documentLimit } = this;
    if (raw.length < this.offThreadFrom) return planBatch(raw, documentLimit);
    this.worker ??= this.start();
    const worker = await this.worker;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, raw, documentLimit });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await (await worker)?.terminate();
  }

  private async start(): Promise<Worker> {
    const worker = await startWorker();
    worker.unref();
    worker.on('message', ({ id, plan }: { id: number; plan: BatchPlan }) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      waiter?.resolve(plan);
    });
    // A planner that died fails the batches it held; the next large batch starts a new one.
    const fail = (error: Error) => {
      this.worker = undefined;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`batch planner thread exited with code ${code}`)));
    return worker;
  }
}

function startWorker(): Promise<Worker> {
  return startScriptWorker(
    new URL('./batch-plan-worker.js', import.meta.url),
    new URL('./batch-plan-worker.ts', import.meta.url),
  );
}
