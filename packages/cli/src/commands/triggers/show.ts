import type { Trigger } from '@dataplatform/sdk';
import type { Output } from '../../output/printer.js';

export const TRIGGER_HEADER = ['id', 'name', 'source', 'target', 'active', 'last run'];

/** One row of `dp triggers list`. */
export function triggerRow(trigger: Trigger): unknown[] {
  const source =
    trigger.source.type === 'schedule'
      ? `cron ${trigger.source.cron}${trigger.source.timezone ? ` (${trigger.source.timezone})` : ''}`
      : `${trigger.source.events.join(',')}${trigger.source.collection ? ` on ${trigger.source.collection}` : ''}`;
  const target = 'function' in trigger.target ? trigger.target.function : trigger.target.webhook;
  return [trigger._id, trigger.name, source, target, trigger.active, trigger.lastRunAt ?? '-'];
}

/** A trigger: the record with --json, a JSON line when piped, a one-row table on a terminal. */
export async function writeTrigger(out: Output, trigger: Trigger): Promise<void> {
  if (out.json) return void (await out.writeJson(trigger));
  if (!out.tty) return void (await out.writeJsonLine(trigger));
  await out.writeTable(TRIGGER_HEADER, [triggerRow(trigger)]);
}
