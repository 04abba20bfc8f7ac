import { type Command, InvalidArgumentError } from 'commander';
import type { Factory } from '../factory.js';

/**
 * A command's run function: the parsed options in, output and errors out. Each command file exports one, and
 * its definition takes it as a parameter so tests can swap it for a spy and check the parsing alone.
 */
export type Run<Options> = (f: Factory, options: Options) => Promise<void>;

const registered = new WeakMap<Command, readonly string[]>();

/** Adds an "Examples:" section to the command's help; every command has one (a test walks the tree). */
export function withExamples(command: Command, examples: readonly string[]): Command {
  registered.set(command, examples);
  const lines = examples.map((line) => (line.startsWith('#') ? `  ${line}` : `  $ ${line}`));
  return command.addHelpText('after', `\nExamples:\n${lines.join('\n')}\n`);
}

/** The examples given to `withExamples`, if any. */
export function examplesOf(command: Command): readonly string[] | undefined {
  return registered.get(command);
}

/** A commander parser for a whole number in [min, max]; anything else is a usage error naming the range. */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
      throw new InvalidArgumentError(`expected a whole number ${range}.`);
    }
    return n;
  };
}

/** Collects a repeatable option's values in order. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
