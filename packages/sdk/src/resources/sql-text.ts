import { DataPlatformError } from '../core/error.js';
import type { SqlParam } from './query.js';

/** One condition of a built query: its SQL text with `?` placeholders, and their values. */
export interface Condition {
  text: string;
  params: SqlParam[];
}

/** Quotes a dotted field path, one "step" at a time; names that cannot be quoted safely are refused. */
export function quotePath(path: string): string {
  const steps = path.split('.');
  for (const step of steps) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the check refuses.
    if (step === '' || /["\u0000-\u001f]/.test(step)) {
      throw new DataPlatformError(
        `Invalid field ${JSON.stringify(path)}: use dotted names without empty steps, double quotes or control characters`,
      );
    }
  }
  return steps.map((step) => `"${step}"`).join('.');
}

export function wholeNumber(value: number, what: string, max: number): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new DataPlatformError(`Invalid ${what} ${value}: a whole number from 0 to ${max}`);
  }
  return value;
}

/** The SQL of `where(field, op, value)` (and of `having`): the field quoted, every value a `?` parameter. */
export function conditionText(field: string, op: string, value?: SqlParam | readonly SqlParam[]): Condition {
  const path = quotePath(field);
  const list = Array.isArray(value) ? (value as SqlParam[]) : [];
  switch (op) {
    case 'is null':
    case 'is not null':
      return { text: `${path} ${op.toUpperCase()}`, params: [] };
    case 'in':
    case 'not in':
      if (list.length === 0)
        throw new DataPlatformError(`where(${JSON.stringify(field)}, '${op}') needs values`);
      return { text: `${path} ${op.toUpperCase()} (${list.map(() => '?').join(', ')})`, params: list };
    case 'between':
      if (list.length !== 2) throw new DataPlatformError('between takes two values: [low, high]');
      return { text: `${path} BETWEEN ? AND ?`, params: list };
    case '=':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
    case 'like':
    case 'not like':
      return { text: `${path} ${op.toUpperCase()} ?`, params: [value as SqlParam] };
  }
  throw new DataPlatformError(`Unknown operator ${JSON.stringify(op)}`);
}

/** Quotes an alias as one name; names that cannot be quoted safely are refused. */
export function quoteAlias(alias: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the check refuses.
  if (alias === '' || /["\u0000-\u001f]/.test(alias)) {
    throw new DataPlatformError(
      `Invalid alias ${JSON.stringify(alias)}: use a name without double quotes or control characters`,
    );
  }
  return `"${alias}"`;
}
