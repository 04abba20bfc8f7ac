import type { JsonObject } from '@dataplatform/contract';
import type { DocumentRow, Stored } from './storage/documents.js';

// The one place a document's JSON text is made, both ways: the caller's fields into stored text (services), and a
// stored row into the text answers and event payloads carry (services and the outbox). Storage returns rows.

/** Serializes the caller's fields without `_id` (stored as a column of its own). */
export function fieldsText(body: JsonObject): string {
  if (!('_id' in body)) return JSON.stringify(body);
  const { _id, ...rest } = body;
  return JSON.stringify(rest);
}

/**
 * A stored document's JSON text, without parsing its fields again: `_id` first, then the caller's fields, then the
 * two timestamps.
 */
export function documentText(row: DocumentRow): string {
  const head = `{"_id":${JSON.stringify(row.id)},`;
  const tail = `"_createdAt":"${row.createdAt}","_updatedAt":"${row.updatedAt}"}`;
  return row.data.length <= 2 ? head + tail : `${head}${row.data.slice(1, -1)},${tail}`;
}

/** The answer of a successful DELETE. */
export function deletedText(id: string): string {
  return `{"_id":${JSON.stringify(id)},"deleted":true}`;
}

/** The JSON text of what a successful operation stored: the document, or the delete's answer. */
export function storedText(stored: Stored): string {
  return 'row' in stored ? documentText(stored.row) : deletedText(stored.deleted);
}
