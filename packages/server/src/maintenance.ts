import { IDEMPOTENCY_WINDOW_MS, METRIC_INTERVALS, METRIC_RETENTION_MS } from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from './storage/types.js';

/** A periodic task: its name, how often it runs across all instances, and its work at the time of the tick. */
export interface Task {
  name: string;
  everyMs: number;
  run(storage: Storage, now: Date): Promise<unknown>;
}

/** How long finished webhook deliveries, their attempts and their events stay listed. */
export const WEBHOOK_HISTORY_MS = 30 * 24 * 60 * 60 * 1000;

const TASKS: readonly Task[] = [
  {
    name: 'purge-expired-idempotency-keys',
    everyMs: 10 * 60 * 1000,
    run: (storage) =>
      storage.idempotency.purgeExpired(new Date(Date.now() - IDEMPOTENCY_WINDOW_MS).toISOString()),
  },
  {
    // A day's grace: a token of a session ended yesterday still answers `session_expired`, not `unauthorized`.
    name: 'purge-ended-sessions',
    everyMs: 60 * 60 * 1000,
    run: (storage) => storage.sessions.purgeEnded(new Date(Date.now() - 86_400_000).toISOString()),
  },
  {
    // Flows abandoned half-way (a closed provider tab, a cancelled passkey prompt) expire within minutes.
    name: 'purge-expired-sign-in-flows',
    everyMs: 60 * 60 * 1000,
    run: (storage) => storage.signIn.purgeFlows(new Date().toISOString()),
  },
  {
    name: 'purge-webhook-history',
    everyMs: 60 * 60 * 1000,
    run: (storage) =>
      storage.deliveries.purgeFinished(new Date(Date.now() - WEBHOOK_HISTORY_MS).toISOString()),
  },
  {
    // Device sign-ins nobody confirmed, or whose program stopped polling, are dead after their 10 minutes.
    name: 'purge-expired-device-sign-ins',
    everyMs: 60 * 60 * 1000,
    run: (storage) => storage.deviceAuthorizations.purge(new Date().toISOString()),
  },
];

/** The request log's sweep: entries older than the retention go, once an hour. */
export function requestLogRetention(days: number): Task {
  return {
    name: 'purge-request-logs',
    everyMs: 60 * 60 * 1000,
    run: (storage, now) => storage.requestLogs.purge(now.getTime() - days * 86_400_000),
  };
}

/** Request metrics' sweep: each bucket size expires after its own retention (`METRIC_RETENTION_MS`). */
export const metricsRetention: Task = {
  name: 'purge-metric-buckets',
  everyMs: 60 * 60 * 1000,
  run: async (storage, now) => {
    for (const interval of METRIC_INTERVALS)
      await storage.metrics.purge(interval, now.getTime() - METRIC_RETENTION_MS[interval]);
  },
};

/**
 * Runs the periodic tasks. Every instance ticks, but a task's work happens only in the instance that claims it
 * in the database for the period, so several instances do it once between them.
 */
export class Maintenance {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly storage: Storage,
    private readonly log: FastifyBaseLogger,
    private readonly tickMs = 30_000,
    /** Tasks of areas that need more than storage (billing's), run after the built-in ones. */
    private readonly areaTasks: readonly Task[] = [],
  ) {}

  /** Claims and runs every due task once; returns the names of the tasks this instance ran. */
  async tick(now = new Date()): Promise<string[]> {
    const ran: string[] = [];
    for (const task of [...TASKS, ...this.areaTasks]) {
      const next = new Date(now.getTime() + task.everyMs).toISOString();
      if (!(await this.storage.tasks.claim(task.name, now.toISOString(), next))) continue;
      await task.run(this.storage, now);
      ran.push(task.name);
    }
    return ran;
  }

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.tick().catch((error) => this.log.error({ err: error }, 'maintenance task failed'));
    }, this.tickMs);
    this.timer.unref();
  }

  /** Stops ticking and waits for a task in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
