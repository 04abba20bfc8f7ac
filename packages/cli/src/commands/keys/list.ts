import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { KEY_HEADER, keyRow } from './show.js';

/** `dp keys list` (also `dp keys`). */
export function newKeysListCommand(f: Factory, run: Run<Record<string, never>> = runKeysList): Command {
  const command = new Command('list')
    .description('List your API keys, newest first, without their secrets')
    .action(() => run(f, {}));
  return withExamples(command, ['dp keys', 'dp keys list --json']);
}

/** A table on a terminal, one JSON key per line when piped, `{ data }` with --json. */
export async function runKeysList(f: Factory): Promise<void> {
  const client = await f.client();
  const list = await attempt('list keys', client.keys.list());
  const out = await f.output();
  if (out.json) return void (await out.writeJson(list));
  if (!out.tty) {
    for (const key of list.data) await out.writeJsonLine(key);
    return;
  }
  await out.writeTable(KEY_HEADER, list.data.map(keyRow));
  if (list.data.length === 0) out.note('No keys yet: `dp keys create --name … --scope …` makes one');
}
