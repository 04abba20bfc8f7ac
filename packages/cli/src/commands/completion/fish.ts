import type { CommandSpec } from './tree.js';

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * A fish completion script for `dp` and `dataplatform`: a helper finds the command path in the words typed so
 * far, and every completion is conditioned on that path.
 */
export function fishScript(specs: CommandSpec[], programs: string[]): string {
  const paths = specs.filter((s) => s.path.length > 0).map((s) => quote(s.path.join(' ')));
  const [program, ...aliases] = programs;
  const lines: string[] = [];
  for (const s of specs) {
    const when = `-n "test (__dp_path) = ${quote(s.path.join(' '))}"`;
    for (const c of s.subcommands) {
      lines.push(`complete -c ${program} -f ${when} -a ${quote(c.name)} -d ${quote(c.description)}`);
    }
    for (const choice of s.choices) lines.push(`complete -c ${program} -f ${when} -a ${quote(choice)}`);
    for (const o of s.options) {
      const short = o.short ? ` -s ${o.short.slice(1)}` : '';
      const value = o.takesValue ? ' -r' : '';
      lines.push(
        `complete -c ${program} ${when} -l ${o.long.slice(2)}${short}${value} -d ${quote(o.description)}`,
      );
    }
  }
  return `# fish completion for ${programs.join(' and ')}; load it with: dp completion fish | source
function __dp_path
    set -l known ${paths.join(' ')}
    set -l path ''
    for word in (commandline -opc)[2..-1]
        set -l next (string trim -- "$path $word")
        if contains -- $next $known
            set path $next
        end
    end
    echo $path
end
${lines.join('\n')}
${aliases.map((alias) => `complete -c ${alias} -w ${program}`).join('\n')}
`;
}
