import { isJsonObject, type JsonObject, mergePatch } from '@dataplatform/contract';
import { fieldsText } from '../document-text.js';
import { ApiError } from '../http/errors.js';
import { ulid } from '../ids.js';
import type { DocumentOperation } from '../storage/documents.js';
import type { Guard } from './schema-guards.js';

/** Makes document ids: ULIDs, monotonic within the process so they sort by creation. */
export const nextId = ulid;

type Operation<K extends DocumentOperation['kind']> = Extract<DocumentOperation, { kind: K }>;

/** Stores a checked create body; its `_id`, else `id`, else a new id names the document. */
export function insertOperation(
  collection: string,
  body: JsonObject,
  now: string,
  id?: string,
): Operation<'insert'> {
  const docId = typeof body._id === 'string' ? body._id : (id ?? nextId());
  return {
    kind: 'insert',
    collection,
    row: { id: docId, data: fieldsText(body), createdAt: now, updatedAt: now },
  };
}

/** The caller's fields of a create body: everything but `_id`, which names the document. */
export function fieldsOf(body: JsonObject): JsonObject {
  if (!('_id' in body)) return body;
  const { _id, ...fields } = body;
  return fields;
}

/** The `ifMatch` of a conditional write, left out when the request has none. */
function condition(ifMatch: string | undefined): { ifMatch?: string } {
  return ifMatch === undefined ? {} : { ifMatch };
}

/** Replaces a document's fields with a checked body's JSON text (PUT), if it still matches `ifMatch`. */
export function replaceOperation(
  collection: string,
  id: string,
  data: string,
  now: string,
  ifMatch?: string,
): Operation<'replace'> {
  return { kind: 'replace', collection, id, data, updatedAt: now, ...condition(ifMatch) };
}

/** Deletes a document (DELETE), if it still matches `ifMatch`. */
export function deleteOperation(collection: string, id: string, ifMatch?: string): Operation<'delete'> {
  return { kind: 'delete', collection, id, ...condition(ifMatch) };
}

/**
 * Applies a checked JSON Merge Patch to a document (PATCH), if it still matches `ifMatch`. An empty patch changes
 * nothing, so it is a read: the document keeps its `_updatedAt` and no `document.updated` event is written (a
 * conditional one still answers 412 when its condition fails).
 */
export function patchOperation(
  collection: string,
  id: string,
  patch: JsonObject,
  now: string,
  check?: Guard | null,
  ifMatch?: string,
): Operation<'update'> | Operation<'get'> {
  if (isEmptyPatch(patch)) return { kind: 'get', collection, id, ...condition(ifMatch) };
  const change = (data: JsonObject) => {
    const next = mergePatch(data, patch);
    return isJsonObject(next) ? next : {};
  };
  // The collection's validator sees the merged document, inside the write's transaction.
  if (check) return { kind: 'update', collection, id, change, check, updatedAt: now, ...condition(ifMatch) };
  return { kind: 'update', collection, id, change, updatedAt: now, ...condition(ifMatch) };
}

function isEmptyPatch(patch: JsonObject): boolean {
  for (const _ in patch) return false;
  return true;
}

/** The error a document operation that failed in storage answers with. */
export function failureError(
  reason: 'not_found' | 'conflict' | 'precondition_failed',
  collection: string,
  id: string,
): ApiError {
  if (reason === 'conflict')
    return new ApiError('conflict', 'A document with this _id already exists in the collection');
  if (reason === 'precondition_failed')
    return new ApiError(
      'precondition_failed',
      `Document "${id}" in collection "${collection}" changed: If-Match names none of its current entity tags`,
    );
  return new ApiError('not_found', `Document "${id}" not found in collection "${collection}"`);
}
