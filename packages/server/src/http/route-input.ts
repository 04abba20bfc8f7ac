import {
  CollectionName,
  checkCollectionName,
  checkDocumentBody,
  DocumentId,
  DocumentInput,
  DocumentPatch,
  DocumentReplace,
  FunctionInput,
  invalidDocumentId,
  isDocumentId,
  isJsonObject,
  type RouteDefinition,
  SqlRequest,
  type Violation,
} from '@dataplatform/contract';
import type { z } from 'zod';
import { ApiError } from './errors.js';
import { rejectViolation, validate } from './validate.js';

/**
 * Path segments whose contract rule speaks for them: the rule gives the documented code (`reserved_collection`)
 * and message, and costs a regular expression instead of a schema parse on the hottest routes.
 */
const SEGMENT_RULES = new Map<z.ZodType, (value: string, field: string) => Violation | null>([
  [CollectionName, (value) => checkCollectionName(value)],
  [DocumentId, (value, field) => (isDocumentId(value) ? null : invalidDocumentId(field))],
]);

/** Bodies that are documents are checked by the document rules, as batch operations and import rows are. */
const DOCUMENT_RULES = new Map<z.ZodType, { allowId: boolean }>([
  [DocumentInput, { allowId: true }],
  [DocumentReplace, { allowId: false }],
  [DocumentPatch, { allowId: false }],
]);

/** What a body that is no JSON object is told, where the route's schema has an example worth showing. */
const OBJECT_HINTS = new Map<z.ZodType, string>([[SqlRequest, ': { "sql": "SELECT …" }']]);

/** The path parameters, checked with the route's schema (segment by segment where a contract rule applies). */
export function routeParams(route: RouteDefinition, raw: unknown): unknown {
  const schema = route.params;
  if (!schema) return undefined;
  const values = raw as Record<string, string>;
  const shape = schema.shape as Record<string, z.ZodType>;
  let ruled = true;
  for (const field in shape) {
    const rule = SEGMENT_RULES.get(shape[field]!);
    if (rule) rejectViolation(rule(values[field] ?? '', field));
    else ruled = false;
  }
  return ruled ? values : validate(schema, values, 'path');
}

/** The query string, checked with the route's schema. */
export function routeQuery(route: RouteDefinition, raw: unknown): unknown {
  return route.query ? validate(route.query, raw, 'query') : undefined;
}

/** A JSON body, checked by the document rules or the route's schema; a left-out optional body counts as `{}`. */
export function routeBody(route: RouteDefinition, body: unknown): unknown {
  const schema = route.body;
  if (!schema) return undefined;
  const document = DOCUMENT_RULES.get(schema);
  if (document) {
    rejectViolation(checkDocumentBody(body, document));
    return body;
  }
  // A function's input is any JSON value: the JSON parser's own checks are all it needs; none is null.
  if (schema === FunctionInput) return body === undefined ? null : body;
  if (body === undefined && route.bodyRequired === false) return validate(schema, {}, 'body');
  if (!isJsonObject(body))
    throw new ApiError('invalid_body', `Body must be a JSON object${OBJECT_HINTS.get(schema) ?? ''}`);
  return validate(schema, body, 'body');
}
