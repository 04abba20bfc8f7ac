import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { writeKey, writeSecret } from './show.js';

/** Options of the commands that act on one key. */
export interface KeyIdOptions {
  id: string;
}

/** What each of `pause`, `resume`, `rotate` and `delete` says and does. */
const ACTIONS = {
  pause: 'Stop a key from working at once; its usage history is kept',
  resume: 'Make a paused key work again',
  rotate: 'Give a key a new secret (printed, shown only once); the old one stops working at once',
  delete: 'Delete a key for good, with its usage history',
} as const;

export type KeyAction = keyof typeof ACTIONS;

/** `dp keys pause|resume|rotate|delete <id>`. */
export function newKeyActionCommand(
  action: KeyAction,
  f: Factory,
  run: Run<KeyIdOptions> = (factory, options) => runKeyAction(action, factory, options),
): Command {
  const command = new Command(action)
    .description(`${ACTIONS[action]} (needs a session: \`dp login\`)`)
    .argument('<id>', 'the key id (`dp keys` lists them)')
    .action((id: string) => run(f, { id }));
  return withExamples(command, [`dp keys ${action} 3fKq9ZxW2bLmN8pR`]);
}

/** Runs the action; a paused or expired key that cannot be rotated exits with status 6 (conflict). */
export async function runKeyAction(action: KeyAction, f: Factory, { id }: KeyIdOptions): Promise<void> {
  const client = await f.client();
  const what = `${action} key "${id}"`;
  if (action === 'rotate') {
    return writeSecret(await f.output(), await attempt(what, client.keys.rotate(id)), 'Rotated');
  }
  if (action === 'delete') {
    const answer = await attempt(what, client.keys.delete(id));
    const out = await f.output();
    if (out.json) await out.writeJson(answer);
    return out.success(`Deleted key ${answer._id}`);
  }
  const key = await attempt(what, action === 'pause' ? client.keys.pause(id) : client.keys.resume(id));
  const out = await f.output();
  await writeKey(out, key);
  out.success(`Key ${key._id} is ${key.status}`);
}
