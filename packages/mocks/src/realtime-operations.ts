import type { realtimeRoutes, SqlCondition } from '@dataplatform/contract';
import { parseWhere } from '@dataplatform/contract/sql';
import { ApiError } from './answers.js';
import type { Operation } from './document-operations.js';

/**
 * A change stream's `where` and `params` as a condition (undefined without a `where`), refused as the server
 * refuses them, before the stream opens.
 */
export function checkChangesFilter(query: Record<string, unknown>): SqlCondition | undefined {
  const { where, params } = query as { where?: string; params?: string };
  if (where === undefined) {
    if (params !== undefined) throw new ApiError('invalid_sql', '`params` needs a `where` condition to bind');
    return undefined;
  }
  let values: unknown = [];
  try {
    values = params === undefined ? [] : JSON.parse(params);
  } catch {
    values = undefined;
  }
  if (!Array.isArray(values)) throw new ApiError('invalid_sql', '`params` must be a JSON array of values');
  const condition = parseWhere(where, values);
  if ('code' in condition) throw ApiError.fromViolation(condition);
  return condition;
}

/** The mocks speak no WebSocket: the realtime route answers as the server does to a request without an upgrade. */
export const realtimeOperations: Record<(typeof realtimeRoutes)[number]['id'], Operation> = {
  'realtime.connect': () => {
    throw new ApiError('upgrade_required', 'Connect with a WebSocket upgrade (Upgrade: websocket)');
  },
};
