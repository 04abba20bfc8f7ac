import { CliError, UsageError } from '../errors/cli-error.js';
import { type IOStreams, isTerminal } from '../iostreams.js';

/** What a command that changes something for good asks about. */
export interface Confirmation {
  /** `--yes`: the caller confirmed on the command line. */
  yes: boolean | undefined;
  /** The change in a few words, e.g. `delete document "o-1" of "orders"`. */
  action: string;
}

/**
 * Goes on only when the change is confirmed: by `--yes`, or, when standard input and standard error are a
 * terminal, by answering y to "<action>? [y/N]". A script without `--yes` is refused (status 2) before anything
 * changes, so a forgotten flag never deletes; an answer other than y stops the command with status 1.
 */
export async function confirm(io: IOStreams, { yes, action }: Confirmation): Promise<void> {
  if (yes) return;
  if (!isTerminal(io.stdin) || !isTerminal(io.stderr)) {
    throw new UsageError(
      `refusing to ${action} without confirmation: standard input is not a terminal to ask on`,
      'pass --yes to confirm',
    );
  }
  io.stderr.write(`${capitalize(action)}? [y/N] `);
  const answer = (await readLine(io.stdin)).trim().toLowerCase();
  if (answer !== 'y' && answer !== 'yes') {
    throw new CliError(`did not ${action}: not confirmed`, { hint: 'answer y, or pass --yes' });
  }
}

/** One line typed on the terminal; '' when the input ends first (Ctrl-D). */
function readLine(stdin: IOStreams['stdin']): Promise<string> {
  stdin.setEncoding('utf8');
  return new Promise((resolve) => {
    let text = '';
    const done = () => {
      stdin.off('data', onData);
      stdin.off('end', done);
      // Paused again, so a command that is done lets the process exit.
      stdin.pause();
      resolve(text.split(/\r?\n/)[0] ?? '');
    };
    const onData = (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) done();
    };
    stdin.on('data', onData);
    stdin.once('end', done);
    stdin.resume();
  });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
