import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../storage/types.js';
import { type Clock, iso } from '../webhooks/clock.js';
import { cronLoaded, loadCron, nextTick } from './cron.js';
import type { TriggerRunner } from './runner.js';

/** Due ticks claimed per poll and source; more wait for the next poll. */
const CLAIM_LIMIT = 100;

/** Work done on cron ticks: schedule triggers, scheduled backups. */
export interface TickSource {
  /** Whether any schedule exists: a server without one never loads the cron parser. */
  hasSchedules(): Promise<boolean>;
  /**
   * Claims up to `limit` ticks due at `now` by moving each schedule's next tick on in one compare-and-set (so
   * each tick is claimed by exactly one instance however many serve), and starts their work.
   */
  fire(now: string, limit: number): Promise<void>;
}

/** Schedule triggers as a tick source: a claimed tick starts a run of the trigger's target. */
export function triggerTicks(storage: Storage, runner: TriggerRunner): TickSource {
  return {
    hasSchedules: () => storage.triggers.hasSchedules(),
    async fire(now, limit) {
      const ticks = await storage.triggers.claimDueTicks(
        now,
        (trigger) => (trigger.source.type === 'schedule' ? nextTick(trigger.source, now) : null),
        limit,
      );
      for (const { trigger, scheduledAt } of ticks) await runner.start(trigger, 'schedule', { scheduledAt });
    },
  };
}

/**
 * Fires the ticks of every source. Every instance polls; each tick is claimed by one instance only (see
 * `TickSource.fire`). A tick missed while the server was down, or while the cluster was paused, runs once when it
 * is next polled; the one after it is counted from then, so a long outage does not replay every missed tick.
 */
export class TickScheduler {
  private timer: NodeJS.Timeout | undefined;
  /** Polls run one after another; each call's poll starts after it was made, so it sees the clock of its call. */
  private chain: Promise<void> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly sources: readonly TickSource[],
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
    for (const source of this.sources) {
      try {
        if (!cronLoaded()) {
          if (!(await source.hasSchedules())) continue;
          await loadCron();
        }
        await source.fire(iso(this.clock.now()), CLAIM_LIMIT);
      } catch (error) {
        this.log.error({ err: error }, 'schedule poll failed');
      }
    }
  }
}
