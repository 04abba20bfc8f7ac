import type { ErrorCode } from '../errors.js';
import { dataRoutes } from '../routes/data.js';
import {
  COLLECTION_NAME_PATTERN,
  DOCUMENT_ID_RULE,
  isDocumentId,
  RESERVED_COLLECTIONS,
  SORT_PATTERN,
} from '../schemas/document.js';
import { satisfiesScope } from '../scopes.js';
import { checkJsonValue } from './json-values.js';

/** Field names the server sets on every document. */
export const SYSTEM_FIELDS = ['_id', '_createdAt', '_updatedAt'] as const;

const READ_SCOPES = dataRoutes.find((route) => route.id === 'data.get')!.scopes;

/**
 * Whether a caller holding `granted` (effective scopes) may read documents. Writes answer a caller that may not
 * with `writeReceipt` only, so that `data:write` alone never reads a document, not even through `PATCH {}`.
 */
export function mayReadDocuments(granted: ReadonlySet<string>): boolean {
  return satisfiesScope(granted, READ_SCOPES);
}

/** What a write answers a caller that may not read: the document's `_id`, `_createdAt` and `_updatedAt`. */
export function writeReceipt(doc: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { _id: doc._id, _createdAt: doc._createdAt, _updatedAt: doc._updatedAt };
}

/** A rule broken by a request: the code to answer with and a message a user can act on. */
export interface Violation {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** A JSON object as parsed from a request. */
export type JsonObject = Record<string, unknown>;

/** Checks a collection name: its form, then that no fixed route owns it. */
export function checkCollectionName(name: string): Violation | null {
  if (!COLLECTION_NAME_PATTERN.test(name)) {
    return {
      code: 'validation_error',
      message: `Invalid collection name "${name}": use a letter, then up to 63 letters, digits, "_" or "-"`,
      details: { field: 'collection' },
    };
  }
  if ((RESERVED_COLLECTIONS as readonly string[]).includes(name)) {
    return {
      code: 'reserved_collection',
      message: `Collection name "${name}" is reserved`,
      details: { collection: name },
    };
  }
  return null;
}

/** True for a plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The violation of an invalid document id, in a path, a batch operation or a body's `_id`. */
export function invalidDocumentId(field: string): Violation {
  return {
    code: 'validation_error',
    message: `Invalid document id: ${DOCUMENT_ID_RULE}`,
    details: { field },
  };
}

/**
 * Checks a document body for create (`allowId`) or replace/patch: it must be an object, `_id` (when allowed) a
 * valid id string, no other top-level field may start with `_`, and its values must be storable as they are
 * (`checkJsonValue`: nesting depth, Unicode, finite numbers). Every write path calls this.
 */
export function checkDocumentBody(body: unknown, { allowId }: { allowId: boolean }): Violation | null {
  if (!isJsonObject(body)) return { code: 'invalid_body', message: 'Body must be a JSON object' };
  for (const key of Object.keys(body)) {
    if (key.charCodeAt(0) !== 95 /* _ */) continue;
    if (key === '_id' && allowId) {
      if (!isDocumentId(body._id)) return invalidDocumentId('_id');
      continue;
    }
    return {
      code: 'invalid_body',
      message: `Field "${key}" is reserved: top-level names starting with "_" are set by the server`,
      details: { field: key },
    };
  }
  return checkJsonValue(body);
}

/** Applies a JSON Merge Patch (RFC 7396) to `target` and returns the result; neither input is changed. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return patch;
  const out: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    // defineProperty, not assignment: a "__proto__" key stays an ordinary field instead of replacing the prototype.
    else
      Object.defineProperty(out, key, {
        value: mergePatch(out[key], value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

/** One key of a sort: a dotted field path and a direction. */
export interface SortKey {
  path: string[];
  descending: boolean;
}

/** Parses `-a,b.c` into sort keys; returns a violation when the expression is not of that form. */
export function parseSort(sort: string | undefined): SortKey[] | Violation {
  if (sort === undefined || sort === '') return [];
  if (!SORT_PATTERN.test(sort)) {
    return {
      code: 'validation_error',
      message: `Invalid sort "${sort}": use field names or dotted paths, "-" for descending, separated by commas`,
      details: { field: 'sort' },
    };
  }
  return sort.split(',').map((part) => {
    const descending = part.startsWith('-');
    return { path: (descending ? part.slice(1) : part).split('.'), descending };
  });
}

/** Reads a dotted path out of a document; undefined when any step is missing. */
export function valueAtPath(doc: unknown, path: readonly string[]): unknown {
  let current = doc;
  for (const step of path) {
    if (!isJsonObject(current)) return undefined;
    current = current[step];
  }
  return current;
}

/**
 * Sort rank of a JSON value's type. Every engine orders by this rank first, then by value:
 * missing or null < booleans (false < true) < numbers < strings (by code point) < arrays and objects.
 * Arrays and objects tie among themselves (the `_id` tie-break orders them): engines store them in forms
 * whose text differs, so no order between them could be the same everywhere.
 */
export function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 0;
  switch (typeof value) {
    case 'boolean':
      return 1;
    case 'number':
      return 2;
    case 'string':
      return 3;
    default:
      return 4;
  }
}

function compareStrings(a: string, b: string): number {
  // Code point order, which is what SQLite's BINARY collation and PostgreSQL's "C" collation give on UTF-8.
  if (a === b) return 0;
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const diff = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (diff !== 0) return diff < 0 ? -1 : 1;
  }
}

/** Compares two JSON values in the documented sort order. */
export function compareJsonValues(a: unknown, b: unknown): number {
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return rank < 0 ? -1 : 1;
  switch (typeRank(a)) {
    case 0:
      return 0;
    case 1:
    case 2:
      return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
    case 3:
      return compareStrings(a as string, b as string);
    default:
      return 0;
  }
}

/**
 * Orders documents by sort keys, then by `_id` in the direction of the last key, so that pages are stable
 * and a sort such as `-_createdAt` can be read backwards off one index.
 */
export function compareDocuments(a: JsonObject, b: JsonObject, keys: readonly SortKey[]): number {
  for (const key of keys) {
    const order = compareJsonValues(valueAtPath(a, key.path), valueAtPath(b, key.path));
    if (order !== 0) return key.descending ? -order : order;
  }
  const byId = compareStrings(String(a._id), String(b._id));
  return keys.at(-1)?.descending ? -byId : byId;
}
