import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';
import { TRIGGER_HEADER, triggerRow } from './show.js';

/** Options of `dp triggers list`. */
export interface TriggersListOptions {
  clusterId?: string | undefined;
}

/** `dp triggers list`. */
export function newTriggersListCommand(f: Factory, run: Run<TriggersListOptions> = runTriggersList): Command {
  const command = new Command('list')
    .description('List the triggers of your clusters')
    .action(() => run(f, {}));
  return withExamples(command, ['dp triggers', 'dp triggers list --json']);
}

/** A table on a terminal, one JSON trigger per line when piped, `{ data, total }` with --json. */
export async function runTriggersList(f: Factory, options: TriggersListOptions): Promise<void> {
  const client = await sessionClient(f);
  const list = await attempt(
    'list triggers',
    client.triggers.list({ clusterId: options.clusterId, limit: 1000 }),
  );
  const out = await f.output();
  if (out.json) return void (await out.writeJson({ data: list.data, total: list.total }));
  if (!out.tty) {
    for (const trigger of list.data) await out.writeJsonLine(trigger);
    return;
  }
  await out.writeTable(TRIGGER_HEADER, list.data.map(triggerRow));
}
