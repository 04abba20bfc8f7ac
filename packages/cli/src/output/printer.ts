import { type IOStreams, isTerminal, write } from '../iostreams.js';
import { colorStyle, noStyle, type Style, useColor } from './color.js';
import { formatJson } from './json.js';
import { cellText, renderTable, renderTsv } from './table.js';

/**
 * How a command prints. Results go to standard output: JSON with --json (shapes documented in docs/cli.md and
 * kept stable), tables and colour only for a terminal, plain lines for a pipe. Notes for a person ("Deleted …",
 * "Showing 1–50 of 120") go to standard error, only when it is a terminal and never with --json.
 */
export interface Output {
  /** --json was given. */
  readonly json: boolean;
  /** Standard output is a terminal. */
  readonly tty: boolean;
  /** Styles for standard output (plain when it is not coloured). */
  readonly style: Style;
  /** Styles for standard error. */
  readonly errStyle: Style;
  /** Writes text to standard output as it is. */
  write(text: string): Promise<void> | undefined;
  /** Writes a value as indented JSON (coloured on a coloured terminal). */
  writeJson(value: unknown): Promise<void> | undefined;
  /** Writes a value as one line of compact JSON (NDJSON). */
  writeJsonLine(value: unknown): Promise<void> | undefined;
  /** A table on a terminal; tab-separated rows without a header otherwise. */
  writeTable(header: string[], rows: unknown[][]): Promise<void> | undefined;
  /** A note for a person on standard error; nothing when it is not a terminal or with --json. */
  note(text: string): void;
  /** A confirmation for a person (a green ✓ then the text), under the same rule as `note`. */
  success(text: string): void;
}

/** Builds the Output of one invocation; chalk is loaded only when some stream is coloured. */
export async function createOutput(io: IOStreams, flags: { json: boolean; color: boolean }): Promise<Output> {
  const outColor = useColor(io.stdout, io.env, flags.color);
  const errColor = useColor(io.stderr, io.env, flags.color);
  const colored = outColor || errColor ? await colorStyle() : noStyle;
  const style = outColor ? colored : noStyle;
  const errStyle = errColor ? colored : noStyle;
  const tty = isTerminal(io.stdout);
  const forPerson = isTerminal(io.stderr) && !flags.json;
  const width = io.stdout.columns ?? 100;
  return {
    json: flags.json,
    tty,
    style,
    errStyle,
    write: (text) => write(io.stdout, text),
    writeJson: (value) => write(io.stdout, `${formatJson(value, style)}\n`),
    writeJsonLine: (value) => write(io.stdout, `${JSON.stringify(value)}\n`),
    writeTable(header, rows) {
      const cells = rows.map((row) => row.map(cellText));
      return write(io.stdout, tty ? renderTable(header, cells, width, style) : renderTsv(cells));
    },
    note(text) {
      if (forPerson) io.stderr.write(`${errStyle.dim(text)}\n`);
    },
    success(text) {
      if (forPerson) io.stderr.write(`${errStyle.green('✓')} ${text}\n`);
    },
  };
}
