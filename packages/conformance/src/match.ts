/** Variables of one run of a case: setup names, captures and `$unique`. */
export type Variables = Record<string, unknown>;

const WHOLE = /^\{\{\s*([$\w.-]+)\s*\}\}$/;
const PART = /\{\{\s*([$\w.-]+)\s*\}\}/g;

/** The value at a dotted path (`a.b.0.c`) of `root`, or undefined. */
export function pathValue(root: unknown, path: string): unknown {
  let value = root;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function lookup(variables: Variables, path: string): unknown {
  const value = pathValue(variables, path);
  if (value === undefined) throw new Error(`unknown variable {{${path}}}`);
  return value;
}

/** Replaces `{{var.path}}` in a string; a string that is one reference alone becomes the value itself. */
export function interpolate(value: unknown, variables: Variables): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(variables, whole[1]!);
    return value.replace(PART, (_, path: string) => {
      const found = lookup(variables, path);
      return typeof found === 'string' ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, variables));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, variables)]));
  return value;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function isOperator(matcher: Record<string, unknown>): boolean {
  const keys = Object.keys(matcher);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

/** Mismatches of `actual` against `matcher`, each naming where (`body.data.0._id`); empty when it matches. */
export function mismatches(actual: unknown, matcher: unknown, variables: Variables, at: string): string[] {
  if (typeof matcher === 'string') {
    const expected = interpolate(matcher, variables);
    return equal(actual, expected) ? [] : [`${at}: expected ${show(expected)}, got ${show(actual)}`];
  }
  if (Array.isArray(matcher)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${show(actual)}`];
    if (actual.length !== matcher.length)
      return [`${at}: expected ${matcher.length} items, got ${actual.length}`];
    return matcher.flatMap((item, i) => mismatches(actual[i], item, variables, `${at}.${i}`));
  }
  if (matcher !== null && typeof matcher === 'object') {
    const object = matcher as Record<string, unknown>;
    if (isOperator(object)) return operatorMismatches(actual, object, variables, at);
    if (typeOf(actual) !== 'object') return [`${at}: expected an object, got ${show(actual)}`];
    const fields = actual as Record<string, unknown>;
    return Object.entries(object).flatMap(([key, sub]) => {
      const absent = sub !== null && typeof sub === 'object' && (sub as { $absent?: boolean }).$absent;
      if (!(key in fields)) return absent ? [] : [`${at}.${key}: missing, expected ${show(sub)}`];
      return mismatches(fields[key], sub, variables, `${at}.${key}`);
    });
  }
  return equal(actual, matcher) ? [] : [`${at}: expected ${show(matcher)}, got ${show(actual)}`];
}

function operatorMismatches(
  actual: unknown,
  operator: Record<string, unknown>,
  variables: Variables,
  at: string,
): string[] {
  const out: string[] = [];
  for (const [name, argument] of Object.entries(operator)) {
    switch (name) {
      case '$any':
        if (actual === undefined) out.push(`${at}: missing`);
        break;
      case '$absent':
        if (actual !== undefined) out.push(`${at}: expected nothing, got ${show(actual)}`);
        break;
      case '$type': {
        const type = argument === 'integer' && Number.isInteger(actual) ? 'integer' : typeOf(actual);
        if (type !== argument) out.push(`${at}: expected a value of type ${argument}, got ${show(actual)}`);
        break;
      }
      case '$regex':
        if (typeof actual !== 'string' || !new RegExp(String(argument)).test(actual))
          out.push(`${at}: expected a string matching /${argument}/, got ${show(actual)}`);
        break;
      case '$length': {
        const length = typeof actual === 'string' || Array.isArray(actual) ? actual.length : undefined;
        if (length !== argument) out.push(`${at}: expected length ${argument}, got ${show(actual)}`);
        break;
      }
      case '$contains':
        if (
          !Array.isArray(actual) ||
          !actual.some((item) => mismatches(item, argument, variables, at).length === 0)
        )
          out.push(`${at}: expected an array with an item like ${show(argument)}, got ${show(actual)}`);
        break;
      default:
        out.push(`${at}: unknown matcher ${name}`);
    }
  }
  return out;
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeOf(a) !== typeOf(b) || a === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => equal(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => equal(left[key], right[key]));
}

function show(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
