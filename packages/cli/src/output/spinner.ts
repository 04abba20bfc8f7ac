import { type IOStreams, isTerminal } from '../iostreams.js';

/** Progress shown while something slow runs; does nothing unless standard error is a terminal. */
export interface Spinner {
  update(text: string): void;
  stop(): void;
}

const silent: Spinner = { update() {}, stop() {} };

/** Starts an ora spinner on standard error when it is a terminal (ora is loaded only then). */
export async function startSpinner(io: IOStreams, text: string, json: boolean): Promise<Spinner> {
  if (!isTerminal(io.stderr) || json || io.env.CI) return silent;
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: io.stderr, discardStdin: false }).start();
  return {
    update(next) {
      spinner.text = next;
    },
    stop() {
      spinner.stop();
    },
  };
}
