import type { Command } from 'commander';

/** One option as completion offers it. */
export interface OptionSpec {
  /** `--limit` */
  long: string;
  /** `-p`, when it has a short form. */
  short?: string | undefined;
  /** Whether a value follows it. */
  takesValue: boolean;
  description: string;
}

/** One command as completion offers it: its path, words to offer after it, and its options. */
export interface CommandSpec {
  /** Names from the root, e.g. ["data", "list"]; [] for the root. */
  path: string[];
  description: string;
  subcommands: { name: string; description: string }[];
  /** Fixed values of its first argument (e.g. the shells of `dp completion`). */
  choices: string[];
  /** Its own options, then the global ones, then --help. */
  options: OptionSpec[];
}

const HELP: OptionSpec = { long: '--help', short: '-h', takesValue: false, description: 'show help' };

function optionSpecs(command: Command): OptionSpec[] {
  return command.options
    .filter((option) => option.long !== undefined && !option.hidden)
    .map((option) => ({
      long: option.long!,
      short: option.short,
      takesValue: option.required || option.optional,
      description: option.description,
    }));
}

/** Every command of the tree, root first, read from the same commander definitions that parse the arguments. */
export function commandSpecs(root: Command): CommandSpec[] {
  const globals = optionSpecs(root);
  const specs: CommandSpec[] = [];
  const visit = (command: Command, path: string[]) => {
    const own = path.length === 0 ? [] : optionSpecs(command);
    specs.push({
      path,
      description: command.description(),
      subcommands: command.commands.map((sub) => ({ name: sub.name(), description: sub.description() })),
      choices: command.registeredArguments[0]?.argChoices ?? [],
      options: [...own, ...globals, HELP],
    });
    for (const sub of command.commands) visit(sub, [...path, sub.name()]);
  };
  visit(root, []);
  return specs;
}
