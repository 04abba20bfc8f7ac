import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { parseJsonSource, readSource } from '../../input/source.js';
import { type Run, withExamples } from '../command.js';
import { sessionClient } from '../session-client.js';

/** Options of `dp functions invoke`. */
export interface FunctionsInvokeOptions {
  id: string;
  /** The input: JSON text, `@file`, `-` for standard input; none sends null. */
  input?: string | undefined;
}

/** `dp functions invoke <id> [input]`. */
export function newFunctionsInvokeCommand(
  f: Factory,
  run: Run<FunctionsInvokeOptions> = runFunctionsInvoke,
): Command {
  const command = new Command('invoke')
    .description('Run a function and print its result; its log lines go to standard error on a terminal')
    .argument('<id>', "the function's id")
    .argument('[input]', 'the input as JSON, @file, or - for standard input (default: null)')
    .action((id: string, input: string | undefined) => run(f, { id, input }));
  return withExamples(command, [
    'dp functions invoke fn_01J… \'{"name":"Ada"}\'',
    'dp functions invoke fn_01J… @input.json',
  ]);
}

/** Runs it; a throw or a limit is the server's 422 with its code (exit status as for any 4xx). */
export async function runFunctionsInvoke(f: Factory, options: FunctionsInvokeOptions): Promise<void> {
  const input =
    options.input === undefined
      ? null
      : parseJsonSource(await readSource(f.io, options.input, 'input'), 'input');
  const client = await sessionClient(f);
  const answer = await attempt(`invoke function "${options.id}"`, client.functions.invoke(options.id, input));
  const out = await f.output();
  if (out.json) return void (await out.writeJson(answer));
  for (const line of answer.logs) out.note(line);
  await out.writeJson(answer.result);
}
