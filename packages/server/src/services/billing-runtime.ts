import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.js';
import { registerMetering } from '../http/metering-hook.js';
import type { Notifier } from '../notifications/notifier.js';
import type { ServerOptions } from '../options.js';
import type { Storage } from '../storage/types.js';
import { systemClock } from '../webhooks/clock.js';
import type { ActivityLog } from './activity.js';
import { BillingService } from './billing.js';
import { BillingTasks } from './billing-tasks.js';
import { StripePayments } from './stripe-payments.js';
import { UsageMeter } from './usage-meter.js';

/** Billing as a running server has it. */
export interface BillingRuntime {
  service: BillingService;
  payments: StripePayments;
  /** Periodic work, handed to `Maintenance` by `startServer`; tests call its methods with a time of their own. */
  tasks: BillingTasks;
  /** Null when metering is off (a benchmark's comparison server). */
  meter: UsageMeter | null;
}

/** Builds billing over `storage` and meters the app's data-plane requests (unless `options.metering` is false). */
export function openBilling(
  app: FastifyInstance,
  config: ServerConfig,
  storage: Storage,
  activity: ActivityLog,
  options: ServerOptions,
  publicUrl: () => string,
  notifier: Notifier,
): BillingRuntime {
  const clock = options.clock ?? systemClock;
  let meter: UsageMeter | null = null;
  if (options.metering !== false) {
    meter = new UsageMeter(storage.billing, app.log, {
      clock,
      flushIntervalMs: options.meteringFlushIntervalMs,
    });
    registerMetering(app, meter);
  }
  return {
    service: new BillingService(storage, activity, config.prices, clock),
    payments: new StripePayments(config.payments, storage, config.prices, publicUrl),
    tasks: new BillingTasks(storage, activity, config.prices, notifier),
    meter,
  };
}
