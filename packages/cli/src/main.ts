import { CommanderError } from 'commander';
import { CliError } from './errors/cli-error.js';
import { ExitCode } from './errors/exit-codes.js';
import type { Failure } from './errors/failure.js';
import { createFactory, type Factory } from './factory.js';
import type { IOStreams } from './iostreams.js';
import { colorStyle, noStyle, useColor } from './output/color.js';
import { createProgram } from './program.js';

/** Commander's outcomes that are not failures: help or the version was asked for. */
const SHOWN = new Set(['commander.helpDisplayed', 'commander.version']);

/**
 * Runs `dp` with `argv` (without the node and script paths) over `io`, and resolves with the exit status.
 * Never throws: every failure is reported on standard error.
 */
export async function main(argv: string[], io: IOStreams, name = 'dp'): Promise<number> {
  const f = createFactory(io);
  // Known before parsing, so that even a usage error found while parsing is reported as JSON.
  f.flags.json = wantsJson(argv);
  const program = createProgram(f, name);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExitCode(error);
    return report(f, error);
  }
}

/** Whether `--json` is among the options (not after `--`, where arguments are taken as they are). */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * The exit status for commander's outcome; commander has already printed its message or the help. Help asked
 * for is 0; `dp data` without a verb (help shown as an error) and every parsing error are usage errors.
 */
export function commanderExitCode(error: CommanderError): number {
  if (SHOWN.has(error.code)) return ExitCode.ok;
  return error.code === 'commander.help' && error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
}

/** Writes the failure to standard error, as text or (with --json) as `{ "error": Failure }`, and returns its status. */
async function report(f: Factory, error: unknown): Promise<number> {
  const failure: Failure =
    error instanceof CliError
      ? { message: error.message, exitCode: error.exitCode, ...(error.hint ? { hint: error.hint } : {}) }
      : (await import('./errors/describe.js')).describeError(error, f.failureContext());
  const { stderr } = f.io;
  if (f.flags.json) {
    stderr.write(`${JSON.stringify({ error: failure })}\n`);
    return failure.exitCode;
  }
  const style = useColor(stderr, f.io.env, f.flags.color) ? await colorStyle() : noStyle;
  let text = `${style.red('error:')} ${failure.message}\n`;
  if (failure.hint) text += `${style.dim('hint:')} ${failure.hint}\n`;
  if (failure.requestId) text += `${style.dim(`request id: ${failure.requestId}`)}\n`;
  stderr.write(text);
  return failure.exitCode;
}
