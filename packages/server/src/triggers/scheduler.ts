import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../storage/types.js';
import { type Clock, iso } from '../webhooks/clock.js';
import { cronLoaded, loadCron, nextTick } from './cron.js';
import type { TriggerRunner } from './runner.js';

/** Due ticks claimed per poll; more wait for the next poll. */
const CLAIM_LIMIT = 100;

/**
 * Fires schedule triggers. Every instance polls; a tick is claimed by moving the trigger's `nextRunAt` on in one
 * compare-and-set (`TriggerStore.claimDueTicks`), so each tick runs in exactly one instance however many serve.
 * A tick missed while the server was down, or while the cluster was paused, runs once when it is next polled;
 * the one after it is counted from then, so a long outage does not replay every missed tick.
 */
export class TriggerScheduler {
  private timer: NodeJS.Timeout | undefined;
  /** Polls run one after another; each call's poll starts after it was made, so it sees the clock of its call. */
  private chain: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly storage: Storage,
    private readonly runner: TriggerRunner,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly pollIntervalMs = 1000,
  ) {}

  start(): void {
    // A slow poll is not stacked with more: the timer skips its turn while one is still waiting or running.
    this.timer = setInterval(() => {
      if (this.pending === 0) void this.poll();
    }, this.pollIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.chain;
  }

  /** Claims and starts every tick due now; also what tests call after moving their clock. */
  poll(): Promise<void> {
    this.pending++;
    const next = this.chain
      .then(() => this.claimAndRun())
      .finally(() => {
        this.pending--;
      });
    this.chain = next;
    return next;
  }

  private async claimAndRun(): Promise<void> {
    try {
      if (!cronLoaded()) {
        if (!(await this.storage.triggers.hasSchedules())) return;
        await loadCron();
      }
      const now = iso(this.clock.now());
      const ticks = await this.storage.triggers.claimDueTicks(
        now,
        (trigger) => (trigger.source.type === 'schedule' ? nextTick(trigger.source, now) : null),
        CLAIM_LIMIT,
      );
      for (const { trigger, scheduledAt } of ticks)
        await this.runner.start(trigger, 'schedule', { scheduledAt });
    } catch (error) {
      this.log.error({ err: error }, 'schedule poll failed');
    }
  }
}
