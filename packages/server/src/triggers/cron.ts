import type { TriggerSource } from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import { lazy } from '../lazy.js';

type Schedule = Extract<TriggerSource, { type: 'schedule' }>;

/** croner, loaded once some trigger has a schedule: a server without schedules never needs it. */
const croner = lazy(() => import('croner'));
let loaded: typeof import('croner') | undefined;

/** Loads the cron parser; `nextTick` and `checkSchedule` need it, and are synchronous (claims call them in a transaction). */
export async function loadCron(): Promise<void> {
  loaded ??= await croner();
}

/** Whether the cron parser is loaded. */
export function cronLoaded(): boolean {
  return loaded !== undefined;
}

function cronOf(schedule: Schedule) {
  if (loaded === undefined) throw new Error('The cron parser is not loaded: await loadCron() first');
  return new loaded.Cron(schedule.cron, { timezone: schedule.timezone ?? 'UTC', paused: true });
}

/**
 * The first tick of a schedule strictly after `after` (ISO 8601 UTC), or null when it has none left. Croner reads
 * 5 fields (minutes first) or 6 (seconds first) and nicknames such as `@hourly`, in the schedule's time zone.
 */
export function nextTick(schedule: Schedule, after: string): string | null {
  const next = cronOf(schedule).nextRun(new Date(after));
  return next ? next.toISOString() : null;
}

/**
 * 400 `validation_error` naming the field (under `prefix`: `source.` for a trigger), when the expression or the
 * time zone cannot be read.
 */
export function checkSchedule(schedule: Schedule, prefix = 'source.'): void {
  try {
    cronOf(schedule).nextRun();
  } catch (error) {
    const field = schedule.timezone !== undefined && !isTimeZone(schedule.timezone) ? 'timezone' : 'cron';
    throw new ApiError(
      'validation_error',
      `Invalid body field "${prefix}${field}": ${error instanceof Error ? error.message : String(error)}`,
      { in: 'body', field: `${prefix}${field}` },
    );
  }
  if (schedule.timezone !== undefined && !isTimeZone(schedule.timezone))
    throw new ApiError('validation_error', `Invalid body field "${prefix}timezone": unknown time zone`, {
      in: 'body',
      field: `${prefix}timezone`,
    });
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
