import { Command, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, wholeNumber, withExamples } from '../command.js';

/** Options of `dp keys usage`. */
export interface KeysUsageOptions {
  id: string;
  outcome?: 'success' | 'denied' | undefined;
  limit?: number | undefined;
  skip?: number | undefined;
}

/** `dp keys usage <id>`. */
export function newKeysUsageCommand(f: Factory, run: Run<KeysUsageOptions> = runKeysUsage): Command {
  const command = new Command('usage')
    .description("Show a key's usage history, newest first (needs a session: `dp login`)")
    .argument('<id>', 'the key id')
    .addOption(new Option('--outcome <outcome>', 'only these entries').choices(['success', 'denied']))
    .option('--limit <n>', 'entries to show, 1 to 1000 (default 50)', wholeNumber(1, 1000))
    .option('--skip <n>', 'entries to skip', wholeNumber(0))
    .action((id: string, options: Omit<KeysUsageOptions, 'id'>) => run(f, { id, ...options }));
  return withExamples(command, [
    'dp keys usage 3fKq9ZxW2bLmN8pR --outcome denied',
    'dp keys usage 3fKq… --json',
  ]);
}

/** A table on a terminal, one JSON entry per line when piped, the API's page with --json. */
export async function runKeysUsage(f: Factory, options: KeysUsageOptions): Promise<void> {
  const client = await f.client();
  const { id, outcome, limit, skip } = options;
  const page = await attempt(
    `read the usage of key "${id}"`,
    client.keys.usage(id, { outcome, limit, skip }),
  );
  const out = await f.output();
  if (out.json) return void (await out.writeJson({ data: page.data, total: page.total }));
  if (!out.tty) {
    for (const entry of page.data) await out.writeJsonLine(entry);
    return;
  }
  await out.writeTable(
    ['time', 'outcome', 'status', 'method', 'path', 'ip'],
    page.data.map((e) => [e.timestamp, e.outcome, e.status, e.method, e.path, e.ip]),
  );
  out.note(`Showing ${page.data.length} of ${page.total} entries`);
}
