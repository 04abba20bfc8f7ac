import type { FastifyBaseLogger } from 'fastify';
import { ulid } from '../ids.js';
import type { FunctionService } from '../services/functions.js';
import type { TriggerRow, TriggerRunRow } from '../storage/triggers.js';
import type { Storage } from '../storage/types.js';

/** How a run of a trigger was started. */
export type RunKind = 'manual' | 'schedule' | 'document';

/**
 * Runs a trigger's target once with an input, recording the run as `queued` first and its outcome after: the
 * queued row is what `POST …/run` answers, so a caller sees the run before it ends.
 */
export class TriggerRunner {
  private readonly active = new Set<Promise<void>>();

  constructor(
    private readonly storage: Storage,
    private readonly functions: FunctionService,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Records the queued run and starts it without waiting; the run's row is returned at once. */
  async start(trigger: TriggerRow, kind: RunKind, input: unknown): Promise<TriggerRunRow> {
    const run: TriggerRunRow = {
      id: `trun_${ulid()}`,
      triggerId: trigger.id,
      status: 'queued',
      startedAt: new Date().toISOString(),
      durationMs: null,
      event: input,
      error: null,
    };
    await this.storage.triggers.recordRun(run);
    const running = this.execute(trigger, kind, run).catch((error) =>
      this.log.error({ err: error, triggerId: trigger.id }, 'trigger run failed'),
    );
    this.active.add(running);
    running.finally(() => this.active.delete(running));
    return run;
  }

  /** Waits for the runs in flight (shutdown, tests). */
  async drain(): Promise<void> {
    await Promise.all([...this.active]);
  }

  private async execute(trigger: TriggerRow, kind: RunKind, run: TriggerRunRow): Promise<void> {
    const started = performance.now();
    const finish = (status: 'ok' | 'error', error: string | null) =>
      this.storage.triggers.finishRun({
        id: run.id,
        triggerId: trigger.id,
        status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        error,
      });
    if (!('function' in trigger.target)) {
      // Webhook targets receive document events through the outbox; a manual or scheduled post is still to come.
      await finish('error', 'Manual and scheduled runs of webhook targets are not supported yet');
      return;
    }
    const fn = await this.storage.functions.get(trigger.target.function);
    if (fn === null || fn.clusterId !== trigger.clusterId) {
      await finish('error', `Function "${trigger.target.function}" no longer exists`);
      return;
    }
    const outcome = await this.functions.run(fn, run.event, kind);
    await finish(outcome.ok ? 'ok' : 'error', outcome.ok ? null : `${outcome.failure}: ${outcome.error.message}`);
  }
}
