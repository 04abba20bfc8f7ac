import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';
import { writeTrigger } from './show.js';

/** Options of the commands that act on one trigger. */
export interface TriggerIdOptions {
  id: string;
}

const ACTIONS = {
  get: 'Show a trigger',
  pause: 'Pause a trigger: it fires nothing until resumed',
  resume: 'Resume a paused trigger',
  run: 'Run a trigger once now, with { "manual": true } as input',
  runs: "Show a trigger's latest runs, newest first",
  delete: 'Delete a trigger',
} as const;

export type TriggerAction = keyof typeof ACTIONS;

/** `dp triggers get|pause|resume|run|runs|delete <id>`. */
export function newTriggerActionCommand(
  action: TriggerAction,
  f: Factory,
  run: Run<TriggerIdOptions> = (factory, options) => runTriggerAction(action, factory, options),
): Command {
  const command = new Command(action)
    .description(`${ACTIONS[action]} (needs a session: \`dp login\`)`)
    .argument('<id>', 'the trigger id (`dp triggers` lists them)')
    .action((id: string) => run(f, { id }));
  return withExamples(command, [`dp triggers ${action} trg_01J…`]);
}

export async function runTriggerAction(
  action: TriggerAction,
  f: Factory,
  { id }: TriggerIdOptions,
): Promise<void> {
  const client = await sessionClient(f);
  const what = `${action} trigger "${id}"`;
  const out = await f.output();
  if (action === 'delete') {
    const deleted = await attempt(what, client.triggers.delete(id));
    if (out.json) await out.writeJson(deleted);
    return out.success(`Deleted trigger ${id}`);
  }
  if (action === 'run' || action === 'runs') {
    const value =
      action === 'run'
        ? await attempt(what, client.triggers.run(id))
        : (await attempt(what, client.triggers.runs(id, { limit: 50 }))).data;
    if (out.json || !out.tty) return void (await out.writeJson(value));
    if (action === 'run')
      return out.success(`Queued run ${(value as { _id: string })._id} (\`dp triggers runs ${id}\`)`);
    await out.writeTable(
      ['started', 'status', 'ms', 'error'],
      (value as { startedAt: string; status: string; durationMs: number | null; error: string | null }[]).map(
        (r) => [r.startedAt, r.status, r.durationMs ?? '-', r.error ?? ''],
      ),
    );
    return;
  }
  const call =
    action === 'get'
      ? client.triggers.get(id)
      : action === 'pause'
        ? client.triggers.pause(id)
        : client.triggers.resume(id);
  const trigger = await attempt(what, call);
  await writeTrigger(out, trigger);
  if (action !== 'get') out.success(`Trigger ${trigger._id} is ${trigger.active ? 'active' : 'paused'}`);
}
