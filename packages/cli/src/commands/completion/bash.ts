import type { CommandSpec } from './tree.js';

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * A bash completion script for `dp` and `dataplatform`: it finds the command path among the words typed so far,
 * then offers that command's subcommands, argument values and options; `@` completes a file name, and anything
 * else falls back to bash's file names.
 */
export function bashScript(specs: CommandSpec[], programs: string[]): string {
  const paths = specs.filter((s) => s.path.length > 0).map((s) => s.path.join(' '));
  const cases = specs
    .map((s) => {
      const words = [...s.subcommands.map((c) => c.name), ...s.choices].join(' ');
      const options = s.options.flatMap((o) => (o.short ? [o.long, o.short] : [o.long])).join(' ');
      return `    ${quote(s.path.join(' '))}) words=${quote(words)}; options=${quote(options)} ;;`;
    })
    .join('\n');
  const valued = [
    ...new Set(
      specs.flatMap((s) =>
        s.options.filter((o) => o.takesValue).flatMap((o) => (o.short ? [o.long, o.short] : [o.long])),
      ),
    ),
  ];
  return `# bash completion for ${programs.join(' and ')}; load it with: source <(dp completion bash)
_dp_completion() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" path="" next i words options
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    next="\${path:+$path }\${COMP_WORDS[i]}"
    case "$next" in
      ${paths.map(quote).join('|')}) path="$next" ;;
    esac
  done
  case "$prev" in
    ${valued.join('|')}) return 0 ;;
  esac
  if [[ "$cur" == @* ]]; then
    local IFS=$'\\n'
    COMPREPLY=($(compgen -f -- "\${cur#@}" | sed 's/^/@/'))
    return 0
  fi
  case "$path" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  fi
}
complete -o default -F _dp_completion ${programs.join(' ')}
`;
}
