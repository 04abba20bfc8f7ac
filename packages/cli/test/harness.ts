import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { type Command, CommanderError } from 'commander';
import type { Run } from '../src/commands/command.js';
import { createFactory, type Factory, type GlobalFlags } from '../src/factory.js';
import type { IOStreams } from '../src/iostreams.js';
import { commanderExitCode, main } from '../src/main.js';
import { inheritSettings, newRootCommand } from '../src/program.js';

/** How a test runs the CLI: which streams are terminals, what standard input holds, the environment. */
export interface RunSetup {
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Terminals among the streams (none by default, as in a script). */
  tty?: { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  columns?: number;
}

/** What one run of the CLI did. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh, empty configuration directory. */
export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'dp-config-'));
}

function capture(tty: boolean | undefined, columns: number | undefined) {
  const stream = Object.assign(new PassThrough(), { isTTY: tty === true, columns });
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    text += chunk;
  });
  return { stream, text: () => text };
}

/** Streams over strings, with an environment that never leaks the test process's own variables. */
export function testIO(setup: RunSetup = {}): { io: IOStreams; stdout: () => string; stderr: () => string } {
  const out = capture(setup.tty?.stdout, setup.columns);
  const err = capture(setup.tty?.stderr, setup.columns);
  const stdin = Object.assign(Readable.from(setup.stdin === undefined ? [] : [setup.stdin]), {
    isTTY: setup.tty?.stdin === true,
  });
  const env = { DATAPLATFORM_CONFIG_DIR: tempConfigDir(), ...setup.env };
  return { io: { stdin, stdout: out.stream, stderr: err.stream, env }, stdout: out.text, stderr: err.text };
}

/** Runs the whole CLI in this process, as `dp …argv`. */
export async function runCli(argv: string[], setup: RunSetup = {}): Promise<RunResult> {
  const { io, stdout, stderr } = testIO(setup);
  const code = await main(argv, io);
  // Let the PassThrough streams deliver what was written.
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: stdout(), stderr: stderr() };
}

/** What parsing gave a command's run function, or the usage error commander reported. */
export type Parsed<O> =
  | { ok: true; options: O; flags: GlobalFlags }
  | { ok: false; code: number; stderr: string };

/**
 * Parses `argv` for one command, mounted under a root with the global options, and captures the options its run
 * function would get instead of running it: the argv → options half of a command's tests.
 */
export async function parseArgs<O>(
  make: (f: Factory, run: Run<O>) => Command,
  argv: string[],
  setup: RunSetup = {},
): Promise<Parsed<O>> {
  const { io, stderr } = testIO(setup);
  const f = createFactory(io);
  let captured: O | undefined;
  const command = make(f, async (_f, options) => {
    captured = options;
  });
  const root = newRootCommand(f).addCommand(command);
  inheritSettings(root);
  try {
    await root.parseAsync([command.name(), ...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    await new Promise((resolve) => setImmediate(resolve));
    return { ok: false, code: commanderExitCode(error), stderr: stderr() };
  }
  if (captured === undefined) throw new Error('the run function was not called');
  return { ok: true, options: captured, flags: f.flags };
}
