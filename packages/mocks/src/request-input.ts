import {
  checkCollectionName,
  checkImportEncoding,
  checkJsonMediaType,
  checkJsonNumbers,
  checkJsonValue,
  FunctionInput,
  isJsonObject,
  type RouteDefinition,
} from '@dataplatform/contract';
import type { AccountModel, MockClient, MockSession } from './accounts.js';
import { ApiError } from './answers.js';
import type { JobLedger } from './imports.js';

/** The server's default body limit (1 MiB; routes such as batch name their own); the mocks do not make it configurable. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** A request's validated parts, as an operation receives them. */
export interface OperationInput {
  /** Path parameters, e.g. `{ collection, id }`, already checked against the route's schema. */
  params: Record<string, string>;
  /** The query parsed by the route's schema, defaults applied. */
  query: Record<string, unknown>;
  /** The parsed JSON body for routes that take one; undefined otherwise. */
  body: unknown;
  /** The caller's effective scopes, for routes that check them per operation (batch). */
  scopes: ReadonlySet<string>;
  /** For the account, settings and logs routes: the accounts, the caller's session and address. */
  account?: AccountInput;
  /** For routes that stream their body (imports): the body as text, gunzipped, and its Content-Type. */
  stream?: { text: string; contentType: string | null };
  /** The jobs, for the import and jobs routes. */
  jobs?: JobLedger;
  /** A document route's conditions: its If-Match (writes) or If-None-Match (reads) header, when sent. */
  conditions?: { ifMatch?: string; ifNoneMatch?: string };
  /** A stream route's `Last-Event-ID` header, when sent. */
  lastEventId?: string;
  /** The user the credential acts for: a session's user or a managed key's owner (null for the mocks' own keys). */
  userId?: string | null;
}

/** What an account route works with. */
export interface AccountInput {
  model: AccountModel;
  /** The session of a route that needs one. */
  session: MockSession | null;
  client: MockClient;
}

interface SchemaIssue {
  path: readonly PropertyKey[];
  message: string;
}

function validationError(where: string, issue: SchemaIssue | undefined): ApiError {
  const field = issue?.path.map(String).join('.') ?? '';
  const message = `Invalid ${where} "${field}": ${issue?.message ?? 'not of the documented form'}`;
  return new ApiError('validation_error', message, { field });
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the raw body of a route that takes one, as the server does: 415 for a body not sent as JSON, 413 past the
 * route's body limit, 400 `invalid_json` for bytes that are not UTF-8.
 */
export async function readBodyText(request: Request, route: RouteDefinition): Promise<string> {
  if (!route.body) return '';
  const limit = route.bodyLimit ?? BODY_LIMIT_BYTES;
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > limit) {
    throw new ApiError('payload_too_large', `Payload too large: the limit is ${limit} bytes`, { limit });
  }
  if (bytes.byteLength === 0) return '';
  const mediaType = checkJsonMediaType(request.headers.get('content-type'));
  if (mediaType) throw ApiError.fromViolation(mediaType);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ApiError('invalid_json', 'Malformed JSON body: the bytes are not valid UTF-8');
  }
}

/** Checks path parameters: the collection name first (for its precise message), then the route's schema. */
export function parseParams(
  route: RouteDefinition,
  raw: Record<string, string | readonly string[] | undefined>,
): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value === 'string') params[name] = value;
  }
  if (params.collection !== undefined) {
    const violation = checkCollectionName(params.collection);
    if (violation) throw ApiError.fromViolation(violation);
  }
  if (!route.params) return params;
  const parsed = route.params.safeParse(params);
  if (!parsed.success) throw validationError('path parameter', parsed.error.issues[0]);
  return parsed.data as Record<string, string>;
}

/** Parses the query string with the route's schema; a repeated parameter counts with its last value. */
export function parseQuery(route: RouteDefinition, url: URL): Record<string, unknown> {
  if (!route.query) return {};
  const parsed = route.query.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) throw validationError('query parameter', parsed.error.issues[0]);
  return parsed.data as Record<string, unknown>;
}

/**
 * Parses a JSON body; an empty body is `undefined`, as on the server, so each operation answers for a missing
 * body the way its route does (`invalid_body` for a document, `invalid_batch` for a batch). As on the server, a
 * number that would change when parsed is refused, and unless `eachDocument` (a batch, whose documents are checked
 * one by one) so is a value that could not be stored: too deep, U+0000, an unpaired surrogate.
 */
export function parseJsonBody(text: string, { eachDocument = false } = {}): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError('invalid_json', `Malformed JSON body: ${(error as Error).message}`);
  }
  const violation = checkJsonNumbers(text) ?? (eachDocument ? null : checkJsonValue(value));
  if (violation) throw ApiError.fromViolation(violation);
  return value;
}

/** Validates the body of a route whose body is not a document: a JSON object of the route's schema. */
export function parseSchemaBody(route: RouteDefinition, body: unknown): unknown {
  if (!route.body) return undefined;
  // A function's input is any JSON value; none is null, as on the server.
  if (route.body === FunctionInput) return body === undefined ? null : body;
  if (!isJsonObject(body)) throw new ApiError('invalid_body', 'Body must be a JSON object');
  const parsed = route.body.safeParse(body);
  if (!parsed.success) throw validationError('body field', parsed.error.issues[0]);
  return parsed.data;
}

/**
 * Reads a streamed body whole (the mocks hold it in memory), gunzipped when Content-Encoding says gzip or its
 * first bytes are gzip's, as the server does.
 */
export async function readStreamText(request: Request): Promise<string> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  const named = checkImportEncoding(request.headers.get('content-encoding'));
  if (typeof named !== 'boolean') throw ApiError.fromViolation(named);
  const gzip = named || (bytes[0] === 0x1f && bytes[1] === 0x8b);
  if (!gzip) return new TextDecoder().decode(bytes);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}
