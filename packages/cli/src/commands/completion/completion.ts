import { Argument, Command } from 'commander';
import type { Factory } from '../../factory.js';
import { write } from '../../iostreams.js';
import { type Run, withExamples } from '../command.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { commandSpecs } from './tree.js';
import { zshScript } from './zsh.js';

/** Options of `dp completion`. */
export interface CompletionOptions {
  shell: 'bash' | 'zsh' | 'fish';
  /** The whole command tree, read when the script is made so it always matches the commands. */
  root: Command;
}

const PROGRAMS = ['dp', 'dataplatform'];

/** `dp completion bash|zsh|fish`. */
export function newCompletionCommand(f: Factory, run: Run<CompletionOptions> = runCompletion): Command {
  const command: Command = new Command('completion')
    .description('Print a shell completion script for dp and dataplatform')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .action((shell: CompletionOptions['shell']) => {
      let root = command;
      while (root.parent) root = root.parent;
      return run(f, { shell, root });
    });
  return withExamples(command, [
    '# bash: add to ~/.bashrc',
    'source <(dp completion bash)',
    '# zsh: add to ~/.zshrc (after compinit), or save as _dp in a directory of $fpath',
    'source <(dp completion zsh)',
    '# fish',
    'dp completion fish > ~/.config/fish/completions/dp.fish',
  ]);
}

/** Writes the script to standard output. */
export async function runCompletion(f: Factory, { shell, root }: CompletionOptions): Promise<void> {
  const specs = commandSpecs(root);
  const make = { bash: bashScript, zsh: zshScript, fish: fishScript }[shell];
  await write(f.io.stdout, make(specs, PROGRAMS));
}
