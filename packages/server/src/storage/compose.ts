import type { DocumentRow } from './documents.js';

/**
 * Builds a document's JSON text from its row without parsing the stored fields again:
 * `_id` first, then the caller's fields, then the two timestamps.
 */
export function composeDocument(row: DocumentRow): string {
  const head = `{"_id":${JSON.stringify(row.id)},`;
  const tail = `"_createdAt":"${row.createdAt}","_updatedAt":"${row.updatedAt}"}`;
  return row.data.length <= 2 ? head + tail : `${head}${row.data.slice(1, -1)},${tail}`;
}

/** The answer of a successful DELETE. */
export function deletedBody(id: string): string {
  return `{"_id":${JSON.stringify(id)},"deleted":true}`;
}

/** Fields stored as columns rather than inside the JSON text, by their public name. */
export const SYSTEM_COLUMNS: Readonly<Record<string, string>> = {
  _id: 'id',
  _createdAt: 'created_at',
  _updatedAt: 'updated_at',
};
