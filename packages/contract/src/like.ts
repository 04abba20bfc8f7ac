/** One piece of a LIKE pattern: `%` (any run), `_` (one character) or literal text. */
export type LikeToken = { kind: 'any' } | { kind: 'one' } | { kind: 'text'; text: string };

/**
 * Splits a LIKE pattern into tokens: `%` matches any run of characters, `_` exactly one character (code point),
 * and a backslash makes the next character literal (PostgreSQL's default). Null when the pattern ends with a
 * lone backslash, which escapes nothing.
 */
export function likeTokens(pattern: string): LikeToken[] | null {
  const tokens: LikeToken[] = [];
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '%') tokens.push({ kind: 'any' });
    else if (ch === '_') tokens.push({ kind: 'one' });
    else if (ch === '\\') {
      if (i + 1 === chars.length) return null;
      tokens.push({ kind: 'text', text: chars[++i]! });
    } else tokens.push({ kind: 'text', text: ch });
  }
  return tokens;
}

/**
 * True when `value` matches the LIKE pattern, case-sensitively. Greedy matching with one backtrack point,
 * so no pattern can make it slower than length × pattern length.
 */
export function likeMatches(value: string, pattern: string): boolean {
  const tokens = likeTokens(pattern);
  if (!tokens) return false;
  const chars = [...value];
  let v = 0;
  let t = 0;
  let starToken = -1;
  let starValue = 0;
  while (v < chars.length) {
    const token = tokens[t];
    if (token && (token.kind === 'one' || (token.kind === 'text' && token.text === chars[v]))) {
      v++;
      t++;
    } else if (token?.kind === 'any') {
      starToken = t++;
      starValue = v;
    } else if (starToken >= 0) {
      t = starToken + 1;
      v = ++starValue;
    } else {
      return false;
    }
  }
  while (tokens[t]?.kind === 'any') t++;
  return t === tokens.length;
}
