import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';

/** The body of every error answer. */
export const ErrorBody = z
  .object({
    error: z.string().meta({ description: 'Human-readable message' }),
    code: z
      .enum(ERROR_CODES)
      .or(z.string())
      .meta({ description: 'Machine-readable error code (see the error registry)' }),
    details: z
      .unknown()
      .optional()
      .meta({ description: 'Extra facts about the failure, such as the invalid field' }),
    requestId: z.string().meta({ description: 'The X-Request-Id of the request' }),
  })
  .meta({ id: 'Error', description: 'An error answer.' });

/** What `String.prototype.trim` removes, spelled out so that every regular expression engine reads the same set. */
const NOT_WHITESPACE = /[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/**
 * A name or label: at most `max` characters as sent, stored without the whitespace around it, and not blank. The
 * pattern says "not blank" in the document, so the limits a client reads are the ones the server applies.
 */
export function label(max: number) {
  return z.string().max(max).trim().min(1).regex(NOT_WHITESPACE, 'Must not be blank');
}

/**
 * A number read from the query string. `z.coerce.number()` alone reads an empty or blank value (`?skip=`) as 0;
 * wrapped in this it is refused, as the document's `type: integer` says. The document shows `schema` unchanged.
 */
export function fromQuery<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? Number.NaN : value),
    schema,
  );
}

/** Answer of a DELETE. */
export const Deleted = z
  .object({ _id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'Deleted', description: 'Confirms that a resource was removed.' });

/** A paged list: the items of one page plus the number of all matching items. */
export function listEnvelope<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      data: z.array(item),
      total: z.number().int().min(0).meta({ description: 'Number of matching items across all pages' }),
      limit: z.number().int().min(1).max(1000),
      skip: z.number().int().min(0),
    })
    .meta({ id, description: 'One page of results with the total count.' });
}

/** Timestamp in ISO 8601 UTC. */
export const Timestamp = z.iso.datetime();
