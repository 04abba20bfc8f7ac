import type { CommandSpec } from './tree.js';

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
/** `name:description` for _describe, whose separator is the first unescaped colon. */
const described = (name: string, description: string) =>
  quote(`${name.replace(/:/g, '\\:')}:${description.replace(/\s+/g, ' ')}`);

/**
 * A zsh completion function for `dp` and `dataplatform`, with descriptions. It works both from a directory in
 * $fpath (as the file `_dp`) and when sourced. (`words` and `path` are zsh's own arrays, hence other names.)
 */
export function zshScript(specs: CommandSpec[], programs: string[]): string {
  const paths = specs.filter((s) => s.path.length > 0).map((s) => s.path.join(' '));
  const cases = specs
    .map((s) => {
      const words = [
        ...s.subcommands.map((c) => described(c.name, c.description)),
        ...s.choices.map((c) => described(c, '')),
      ];
      const options = s.options.flatMap((o) => {
        const all = [described(o.long, o.description)];
        if (o.short) all.push(described(o.short, o.description));
        return all;
      });
      return `    (${quote(s.path.join(' '))}) candidates=(${words.join(' ')}); flags=(${options.join(' ')}) ;;`;
    })
    .join('\n');
  return `#compdef ${programs.join(' ')}
# zsh completion for ${programs.join(' and ')}; load it with: source <(dp completion zsh)
_dp() {
  local path_="" next i
  local -a candidates flags
  for ((i = 2; i < CURRENT; i++)); do
    next="\${path_:+$path_ }\${words[i]}"
    case "$next" in
      (${paths.map(quote).join('|')}) path_="$next" ;;
    esac
  done
  case "$path_" in
${cases}
  esac
  if [[ "$PREFIX" == @* ]]; then
    compset -P '@'
    _files
  elif [[ "$PREFIX" == -* ]]; then
    _describe -t options 'option' flags
  else
    _describe -t commands 'command' candidates || _files
  fi
}
if [ "$funcstack[1]" = "_dp" ]; then
  _dp "$@"
else
  compdef _dp ${programs.join(' ')}
fi
`;
}
