import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, wholeNumber, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';

/** Options of `dp functions logs`. */
export interface FunctionsLogsOptions {
  id: string;
  limit: number;
}

/** `dp functions logs <id>`: the latest runs with their log lines. */
export function newFunctionsLogsCommand(
  f: Factory,
  run: Run<FunctionsLogsOptions> = runFunctionsLogs,
): Command {
  const command = new Command('logs')
    .description("Show a function's latest runs, newest first, with their log lines")
    .argument('<id>', "the function's id")
    .option('--limit <n>', 'runs to show, 1 to 1000', wholeNumber(1, 1000), 20)
    .action((id: string, options: { limit: number }) => run(f, { id, limit: options.limit }));
  return withExamples(command, ['dp functions logs fn_01J…', 'dp functions logs fn_01J… --limit 100 --json']);
}

export async function runFunctionsLogs(f: Factory, options: FunctionsLogsOptions): Promise<void> {
  const client = await sessionClient(f);
  const page = await attempt(
    `list the runs of function "${options.id}"`,
    client.functions.invocations(options.id, { limit: options.limit }),
  );
  const out = await f.output();
  if (out.json) return void (await out.writeJson(page.data));
  if (!out.tty) {
    for (const run of page.data) await out.writeJsonLine(run);
    return;
  }
  await out.writeTable(
    ['started', 'status', 'trigger', 'ms', 'logs'],
    page.data.map((run) => [run.startedAt, run.status, run.trigger, run.durationMs, run.logs.join(' | ')]),
  );
}
