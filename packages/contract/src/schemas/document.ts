import { z } from 'zod';
import { isStorableString } from '../semantics/json-values.js';
import { fromQuery, listEnvelope, Timestamp } from './common.js';

/** Collection names: a letter, then up to 63 letters, digits, `_` or `-`. */
export const COLLECTION_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Names taken by fixed routes under /api/v1/data; a collection may not use them. */
export const RESERVED_COLLECTIONS = ['sql', 'batch', 'webhooks', 'jobs', 'imports'] as const;

/** Document ids: 1 to 128 characters, no slash and no control character, and not `.` or `..` (URLs resolve those away). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what the pattern excludes.
export const DOCUMENT_ID_PATTERN = /^(?!\.\.?$)[^/\u0000-\u001f\u007f]{1,128}$/;

/** What a document id must be, in words, for error messages. */
export const DOCUMENT_ID_RULE =
  '1 to 128 characters of well-formed Unicode without "/" or control characters, and not "." or ".."';

/** True for a valid document id: the pattern, and no unpaired surrogate (an id must have a UTF-8 form for URLs). */
export function isDocumentId(value: unknown): value is string {
  return typeof value === 'string' && DOCUMENT_ID_PATTERN.test(value) && isStorableString(value);
}

/** The path segment that names a collection. */
export const CollectionName = z
  .string()
  .regex(COLLECTION_NAME_PATTERN)
  .meta({
    description: `Collection name; ${RESERVED_COLLECTIONS.map((name) => `\`${name}\``).join(', ')} are reserved`,
    example: 'orders',
    not: { enum: [...RESERVED_COLLECTIONS] },
  });

/** The path segment that names a document. */
export const DocumentId = z
  .string()
  .regex(DOCUMENT_ID_PATTERN)
  .refine(isStorableString, 'A document id must be well-formed Unicode')
  .meta({ description: 'Document id', example: '01JD4X1Q3W4W7T2V1N0A5K9G2B' });

/** A stored document: the caller's fields plus `_id` and the two timestamps. */
export const Document = z
  .object({
    _id: z.string().meta({ description: 'Document id; generated (sortable by creation) unless supplied' }),
    _createdAt: Timestamp.meta({ description: 'When the document was created (ISO 8601 UTC)' }),
    _updatedAt: Timestamp.meta({ description: 'When the document was last written (ISO 8601 UTC)' }),
  })
  .catchall(z.unknown())
  .meta({ id: 'Document', description: 'A JSON document in a collection.' });

/**
 * Top-level field names a caller may send: none starting with `_` (the server sets those), except `_id` on create.
 * In the OpenAPI document as `propertyNames`, so generated clients and validators know the rule; the server
 * applies it with `checkDocumentBody`.
 */
export const FIELD_NAME_PATTERNS = { create: '^(?!_(?!id$))', replace: '^(?!_)' } as const;

const DOCUMENT_LIMITS =
  'Objects and arrays nest at most 100 levels; strings and field names are well-formed Unicode without U+0000; integers lie within ±(2^53 − 1).';

/** What a caller sends to create a document: any JSON object; `_id` may be supplied, other `_` fields are reserved. */
export const DocumentInput = z
  .object({
    _id: z
      .string()
      .regex(DOCUMENT_ID_PATTERN)
      .optional()
      .meta({ description: 'Optional id to use instead of a generated one' }),
  })
  .catchall(z.unknown())
  .meta({
    id: 'DocumentInput',
    description: `Any JSON object. Top-level fields starting with \`_\` other than \`_id\` are reserved and refused with 400. ${DOCUMENT_LIMITS}`,
    propertyNames: { pattern: FIELD_NAME_PATTERNS.create },
  });

/** What a caller sends to replace a document (PUT): any JSON object without top-level `_` fields, `_id` included. */
export const DocumentReplace = z.record(z.string(), z.unknown()).meta({
  id: 'DocumentReplace',
  description: `Any JSON object; it replaces every field of the document. Top-level fields starting with \`_\` (\`_id\` too: the path names the document) are refused with 400. ${DOCUMENT_LIMITS}`,
  propertyNames: { pattern: FIELD_NAME_PATTERNS.replace },
});

/** A JSON Merge Patch (RFC 7396): fields to set, `null` to remove. */
export const DocumentPatch = z.record(z.string(), z.unknown()).meta({
  id: 'DocumentPatch',
  description: `A JSON Merge Patch (RFC 7396): fields set to null are removed, objects merge; an empty patch changes nothing. Top-level fields starting with \`_\` are refused with 400. ${DOCUMENT_LIMITS}`,
  propertyNames: { pattern: FIELD_NAME_PATTERNS.replace },
});

/** Sort expression: fields or dotted paths, comma separated, `-` for descending. */
export const SORT_PATTERN = /^-?[A-Za-z_$][\w$]*(\.[\w$]+)*(,-?[A-Za-z_$][\w$]*(\.[\w$]+)*)*$/;

/** Query of the list route. */
export const ListDocumentsQuery = z.object({
  limit: fromQuery(
    z.coerce.number().int().min(1).max(1000).default(50).meta({ description: 'Page size, 1 to 1000' }),
  ),
  skip: fromQuery(
    z.coerce.number().int().min(0).default(0).meta({ description: 'Number of documents to skip' }),
  ),
  sort: z.string().regex(SORT_PATTERN).optional().meta({
    description: 'Field or dotted path to sort by, `-` prefix for descending, several comma separated',
    example: '-_createdAt,name',
  }),
});

/** A page of documents. */
export const DocumentList = listEnvelope(Document, 'DocumentList');

/** Path of a collection route. */
export const CollectionParams = z.object({ collection: CollectionName });

/** Path of a document route. */
export const DocumentParams = z.object({ collection: CollectionName, id: DocumentId });
