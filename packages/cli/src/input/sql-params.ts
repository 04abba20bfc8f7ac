import type { SqlParam } from '@dataplatform/sdk';
import { UsageError } from '../errors/cli-error.js';

/**
 * One `--param` value: a JSON number, `true`, `false`, `null` or a quoted string is taken as that value; any other
 * text is a string. So `--param 42` binds a number and `--param '"42"'` or `--param 042` a string.
 */
export function parseSqlParam(text: string): SqlParam {
  const trimmed = text.trim();
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(trimmed)) return Number(trimmed);
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  if (trimmed === 'null') return null;
  if (trimmed.startsWith('"')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (typeof value === 'string') return value;
    } catch {
      throw new UsageError(
        `--param ${text} starts with a quote but is not a JSON string`,
        'close the quotes',
      );
    }
  }
  return text;
}
