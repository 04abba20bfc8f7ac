import type { JsonObject } from '@dataplatform/contract';

/** Serializes the caller's fields without `_id` (stored as a column of its own). */
export function fieldsText(body: JsonObject): string {
  if (!('_id' in body)) return JSON.stringify(body);
  const { _id, ...rest } = body;
  return JSON.stringify(rest);
}
