import type { FastifyBaseLogger } from 'fastify';
import { ulid } from '../ids.js';
import type { FunctionService } from '../services/functions.js';
import type { ClaimedDelivery } from '../storage/deliveries.js';
import type { TriggerRow, TriggerRunRow } from '../storage/triggers.js';
import type { Storage } from '../storage/types.js';
import type { PostResult } from '../webhooks/dispatch.js';
import type { DeliverySender, OutgoingEvent } from '../webhooks/sender.js';
import { triggerIdOfUrl } from './subscriptions.js';

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
    /** Posts to webhook targets; null on an instance without the key of the webhook secrets. */
    private readonly sender: DeliverySender | null,
  ) {}

  /** Records the queued run and starts it without waiting; the run's row is returned at once. */
  async start(trigger: TriggerRow, kind: RunKind, input: unknown): Promise<TriggerRunRow> {
    const run = await this.queue(trigger, input);
    const running = this.execute(trigger, kind, run)
      .then(() => {})
      .catch((error) => this.log.error({ err: error, triggerId: trigger.id }, 'trigger run failed'));
    this.active.add(running);
    running.finally(() => this.active.delete(running));
    return run;
  }

  /**
   * Runs a document trigger for one delivery of its hidden subscription and answers as an attempt would: a failed
   * run is retried by the delivery worker with the webhooks' backoff. A trigger deleted or paused since the event
   * was captured skips it (a success, so it is not retried).
   */
  async deliverEvent(delivery: ClaimedDelivery): Promise<PostResult> {
    const started = performance.now();
    const trigger = await this.storage.triggers.get(triggerIdOfUrl(delivery.url));
    if (trigger === null || !trigger.active) return { responseStatus: null, error: null, durationMs: 0 };
    const run = await this.queue(trigger, JSON.parse(delivery.body));
    // A webhook target gets the event as a subscription of its own would: same id, type and bytes.
    const event = { id: delivery.eventId, type: delivery.eventType, body: delivery.body };
    const error = await this.execute(trigger, 'document', run, event);
    return { responseStatus: null, error, durationMs: Math.round(performance.now() - started) };
  }

  private async queue(trigger: TriggerRow, input: unknown): Promise<TriggerRunRow> {
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
    return run;
  }

  /** Waits for the runs in flight (shutdown, tests). */
  async drain(): Promise<void> {
    await Promise.all([...this.active]);
  }

  /** Runs the target and records how the run ended; the error, or null when it succeeded. */
  private async execute(
    trigger: TriggerRow,
    kind: RunKind,
    run: TriggerRunRow,
    event?: OutgoingEvent,
  ): Promise<string | null> {
    const started = performance.now();
    const error = await this.runTarget(trigger, kind, run, event).catch((thrown: unknown) =>
      thrown instanceof Error ? thrown.message : String(thrown),
    );
    await this.storage.triggers.finishRun({
      id: run.id,
      triggerId: trigger.id,
      status: error === null ? 'ok' : 'error',
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      error,
    });
    return error;
  }

  private async runTarget(
    trigger: TriggerRow,
    kind: RunKind,
    run: TriggerRunRow,
    event: OutgoingEvent | undefined,
  ): Promise<string | null> {
    if ('webhook' in trigger.target) return this.post(trigger, trigger.target.webhook, kind, run, event);
    const fn = await this.storage.functions.get(trigger.target.function);
    if (fn === null || fn.clusterId !== trigger.clusterId)
      return `Function "${trigger.target.function}" no longer exists`;
    const outcome = await this.functions.run(fn, run.event, kind);
    return outcome.ok ? null : `${outcome.failure}: ${outcome.error.message}`;
  }

  /**
   * Posts the run's input to a webhook target, signed with that webhook's secrets, through the delivery
   * worker's sender (its address rules and timeout). A document event keeps its id and body; a manual or
   * scheduled run posts its input under the run's id.
   */
  private async post(
    trigger: TriggerRow,
    webhookId: string,
    kind: RunKind,
    run: TriggerRunRow,
    event: OutgoingEvent | undefined,
  ): Promise<string | null> {
    const webhook = await this.storage.webhooks.find(trigger.clusterId, webhookId);
    if (webhook === null) return `Webhook "${webhookId}" no longer exists`;
    if (!webhook.active) return `Webhook "${webhookId}" is disabled`;
    if (webhook.delivery !== 'http') return `Webhook "${webhookId}" is delivered as a stream, never posted`;
    if (this.sender === null) return 'This instance does not hold the key of the webhook secrets';
    // `trigger.manual` or `trigger.schedule` as its X-Webhook-Event.
    const outgoing = event ?? { id: run.id, type: `trigger.${kind}`, body: JSON.stringify(run.event) };
    return (await this.sender.send(webhook, outgoing, Date.now())).error;
  }
}
