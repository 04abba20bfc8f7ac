import { UsageError } from '../errors/cli-error.js';
import { type IOStreams, isTerminal, readAll } from '../iostreams.js';

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const BACKSPACE = new Set(['\u007f', '\b']);

/**
 * Asks for a secret on the terminal without echoing it: the prompt goes to standard error, keys are read in raw
 * mode until Enter. Ctrl-C stops the command (status 130), Ctrl-D with nothing typed is a usage error.
 */
export function promptHidden(io: IOStreams, prompt: string): Promise<string> {
  const stdin = io.stdin as IOStreams['stdin'] & { setRawMode?: (raw: boolean) => void };
  if (!isTerminal(stdin) || typeof stdin.setRawMode !== 'function') {
    throw new UsageError(
      'standard input is not a terminal, so the password cannot be asked for',
      'pipe it in with --password-stdin, or use --token / --api-key',
    );
  }
  io.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let secret = '';
    const done = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      io.stderr.write('\n');
      if (error) reject(error);
      else resolve(secret);
    };
    const onData = (chunk: string) => {
      for (const key of chunk) {
        if (key === '\r' || key === '\n') return done();
        if (key === CTRL_C) {
          io.stderr.write('\n');
          stdin.setRawMode?.(false);
          process.exit(130);
        }
        if (key === CTRL_D && secret === '') return done(new UsageError('no password given'));
        if (BACKSPACE.has(key)) secret = secret.slice(0, -1);
        else if (key >= ' ') secret += key;
      }
    };
    stdin.on('data', onData);
  });
}

/** The first line of standard input, for `--password-stdin` (as `docker login` reads it). */
export async function readSecretLine(io: IOStreams, what: string): Promise<string> {
  if (isTerminal(io.stdin)) {
    throw new UsageError(
      `--${what}-stdin reads a pipe, but standard input is a terminal`,
      `drop --${what}-stdin to be asked`,
    );
  }
  const line = (await readAll(io.stdin)).split(/\r?\n/)[0] ?? '';
  if (line === '') throw new UsageError(`no ${what} on standard input`);
  return line;
}
