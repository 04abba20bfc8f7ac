import {
  addUsageDay,
  meteredCost,
  monthOf,
  monthPeriod,
  type PriceTable,
  TRIAL_NOTICE_DAYS,
  zeroTotals,
} from '@dataplatform/contract';
import type { ClientInfo } from '../auth/client.js';
import type { Task } from '../maintenance.js';
import type { Notifier } from '../notifications/notifier.js';
import type { Storage } from '../storage/types.js';
import type { ActivityLog } from './activity.js';
import { dayOf } from './billing.js';

const DAY_MS = 86_400_000;

/** The client of what the server does by itself, as the activity log shows it. */
const SERVER: ClientInfo = { ip: 'server', userAgent: null };

/**
 * The periodic work of billing, each run by the one instance that claims it (`Maintenance`): ending trials and
 * telling owners beforehand, reading what clusters hold, and charging payg usage to credits. Each method takes the
 * time it runs at, so that tests move time instead of waiting.
 */
export class BillingTasks {
  constructor(
    private readonly storage: Storage,
    private readonly activity: ActivityLog,
    private readonly prices: PriceTable,
    private readonly notifier: Notifier,
  ) {}

  /** The tasks for `Maintenance`. */
  tasks(): Task[] {
    return [
      { name: 'billing-end-trials', everyMs: 10 * 60_000, run: (_, now) => this.endTrials(now) },
      { name: 'billing-trial-notices', everyMs: 60 * 60_000, run: (_, now) => this.noticeTrials(now) },
      { name: 'billing-read-storage', everyMs: 10 * 60_000, run: (_, now) => this.readStorage(now) },
      { name: 'billing-charge-payg', everyMs: 60_000, run: (_, now) => this.chargePayg(now) },
    ];
  }

  /** Ends the trials that are over (the keys' tier follows), each noted in its owner's activity log. */
  async endTrials(now: Date): Promise<string[]> {
    const ended = await this.storage.billing.endTrials(now.toISOString());
    for (const { userId, trialExpiresAt } of ended)
      await this.activity.record(userId, 'billing.trial_ended', SERVER, { trialExpiresAt });
    return ended.map((trial) => trial.userId);
  }

  /**
   * Tells the owners whose trial ends within 3 days, once each: a `trial_ending` notification, and
   * `billing.trial_ending` in the activity log as its history.
   */
  async noticeTrials(now: Date): Promise<string[]> {
    const before = new Date(now.getTime() + TRIAL_NOTICE_DAYS * DAY_MS).toISOString();
    const noticed = await this.storage.billing.takeTrialNotices(before, now.toISOString());
    for (const { userId, trialExpiresAt } of noticed) {
      await this.activity.record(userId, 'billing.trial_ending', SERVER, { trialExpiresAt });
      await this.notifier.raise(userId, 'trial_ending', {
        title: 'Your trial ends soon',
        body: `Your trial ends at ${trialExpiresAt}. Choose a plan to keep your keys' rate limits.`,
        link: '/api/billing',
        data: { trialExpiresAt },
      });
    }
    return noticed.map((trial) => trial.userId);
  }

  /** Records today's documents and bytes of every live cluster (a reading replaces the day's earlier one). */
  async readStorage(now: Date): Promise<number> {
    const day = dayOf(now.getTime());
    const ids = await this.storage.billing.liveClusterIds();
    const readings = [];
    for (const id of ids) {
      const cluster = await this.storage.clusters.find(id);
      if (cluster)
        readings.push({
          clusterId: id,
          day,
          documents: cluster.documentCount,
          storageBytes: cluster.storageBytes,
        });
    }
    await this.storage.billing.recordReadings(readings);
    return readings.length;
  }

  /**
   * Charges payg accounts what their metered use of this month (and of last month, whose last counts may have
   * arrived after midnight) costs beyond what was charged before; an account whose credits reach zero is suspended.
   */
  async chargePayg(now: Date): Promise<number> {
    const thisMonth = monthOf(now.toISOString());
    const lastMonth = monthOf(new Date(Date.parse(`${thisMonth}-01`) - DAY_MS).toISOString());
    let charged = 0;
    for (const userId of await this.storage.billing.paygUsers()) {
      for (const month of [lastMonth, thisMonth]) {
        const { start, end } = monthPeriod(month);
        const rows = await this.storage.billing.usage(userId, start, end);
        const cost = meteredCost(rows.reduce(addUsageDay, zeroTotals()), this.prices);
        const outcome = await this.storage.billing.charge(userId, month, cost);
        if (!outcome || outcome.charged === 0) continue;
        charged += outcome.charged;
        // Only the charge that crossed zero suspends, so the log has one entry per suspension.
        if (outcome.status === 'suspended' && outcome.credits + outcome.charged > 0) {
          await this.activity.record(userId, 'billing.suspended', SERVER, { credits: outcome.credits });
          await this.notifier.raise(userId, 'usage_limit', {
            title: 'Usage limit reached',
            body: `Your metered use of ${month} used up your credits; your clusters are suspended until credits are added.`,
            link: '/api/billing',
            data: { month, credits: outcome.credits },
          });
        }
      }
    }
    return charged;
  }
}
