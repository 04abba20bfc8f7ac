/**
 * Whether to colour a stream: never with --no-color or a non-empty NO_COLOR (no-color.org); always with a
 * FORCE_COLOR other than "0"; otherwise only on a terminal that is not TERM=dumb.
 */
export function useColor(
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined>,
  flag: boolean,
): boolean {
  if (!flag) return false;
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return env.FORCE_COLOR !== '0';
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** The few styles the CLI uses; plain identity functions when colour is off. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

const plain = (text: string) => text;

/** Styles without colour; used when a stream is not coloured, so chalk is never loaded for it. */
export const noStyle: Style = {
  bold: plain,
  dim: plain,
  red: plain,
  green: plain,
  yellow: plain,
  cyan: plain,
  magenta: plain,
};

/** Styles with colour, from chalk (loaded only now). */
export async function colorStyle(): Promise<Style> {
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return {
    bold: (t) => chalk.bold(t),
    dim: (t) => chalk.dim(t),
    red: (t) => chalk.red(t),
    green: (t) => chalk.green(t),
    yellow: (t) => chalk.yellow(t),
    cyan: (t) => chalk.cyan(t),
    magenta: (t) => chalk.magenta(t),
  };
}
