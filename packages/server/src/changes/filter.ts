import type { SqlCondition } from '@dataplatform/contract';
import { ApiError } from '../http/errors.js';
import { lazy } from '../lazy.js';
import type { StreamedEvent } from '../storage/deliveries.js';

/** Whether a change stream sends an event. */
export type EventFilter = (event: StreamedEvent) => boolean;

/** The contract's SQL parser and evaluator, loaded by the first condition (as the SQL helper does). */
const sql = lazy(() => import('@dataplatform/contract/sql'));

/**
 * The filter of a change stream's `where` and `params` (a JSON array), in the SQL helper's condition grammar;
 * undefined without `where`. Throws 400 `invalid_sql` for a condition or parameters that cannot be used, before
 * anything is streamed.
 */
export async function eventFilter(
  where: string | undefined,
  params: string | unknown[] | undefined,
): Promise<EventFilter | undefined> {
  if (where === undefined) {
    if (params !== undefined) throw new ApiError('invalid_sql', '`params` needs a `where` condition to bind');
    return undefined;
  }
  const values = typeof params === 'string' ? paramsOf(params) : (params ?? []);
  const { parseWhere, matches } = await sql();
  const condition = parseWhere(where, values);
  if ('code' in condition) throw new ApiError(condition.code, condition.message, condition.details);
  return (event) => matches(condition as SqlCondition, documentOf(event));
}

function paramsOf(text: string): unknown[] {
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_sql', '`params` must be a JSON array of values');
  }
  if (!Array.isArray(values)) throw new ApiError('invalid_sql', '`params` must be a JSON array of values');
  return values;
}

/** The document an event is matched against: after the change, or as it was for a deletion (`data` of both). */
function documentOf(event: StreamedEvent): Record<string, unknown> {
  const body = JSON.parse(event.body) as { data?: Record<string, unknown> };
  return body.data ?? {};
}
