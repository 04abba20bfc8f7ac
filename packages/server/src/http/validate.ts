import type { Violation } from '@dataplatform/contract';
import type { z } from 'zod';
import { ApiError } from './errors.js';

/** Parses `value` with a contract schema; a failure becomes 400 `validation_error` naming the field. */
export function validate<T extends z.ZodType>(
  schema: T,
  value: unknown,
  where: 'query' | 'path' | 'body',
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  // An unknown key is reported on its object: name the key itself.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
  const field = path.join('.');
  throw new ApiError(
    'validation_error',
    `Invalid ${where} ${field ? `field "${field}"` : 'value'}: ${issue.message}`,
    {
      in: where,
      field,
      issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    },
  );
}

/** Throws the violation a contract check found, if any. */
export function rejectViolation(violation: Violation | null): void {
  if (violation) throw new ApiError(violation.code, violation.message, violation.details);
}
