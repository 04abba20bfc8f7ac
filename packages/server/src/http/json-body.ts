import { checkJsonMediaType, checkJsonNumbers, checkJsonValue } from '@dataplatform/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';
import { parseJsonText } from './json-text.js';
import { rejectViolation } from './validate.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body as received, for Idempotency-Key fingerprints. */
    rawBody?: string;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body's bytes as text; bytes that are not UTF-8 are refused rather than replaced. */
function decodeUtf8(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ApiError('invalid_json', 'Malformed JSON body: the bytes are not valid UTF-8');
  }
}

/**
 * Parses a JSON request body and refuses what could not be stored as sent: integers past 2^53 − 1 (they would
 * lose digits), more than `MAX_DOCUMENT_DEPTH` levels, U+0000 and unpaired surrogates in any string or field name,
 * and numbers out of range. The checks never recurse, so no body can exhaust the stack.
 */
export function parseJsonBody(raw: string): unknown {
  const value = parseJsonText(raw);
  if (value === undefined) return undefined;
  rejectViolation(checkJsonNumbers(raw) ?? checkJsonValue(value));
  return value;
}

/** Parses every JSON request body (see `parseJsonBody`) after checking its media type and encoding. */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.decorateRequest('rawBody', undefined);
  addBodyParser(app, parseJsonBody);
}

/**
 * Keeps every request body of `scope` as text, unparsed, for routes that parse it themselves (off the event loop
 * when it is large). The media type and encoding are checked as for every JSON body, within the route's limit.
 */
export function keepBodyAsText(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  addBodyParser(scope, (raw) => raw);
}

function addBodyParser(scope: FastifyInstance, parse: (raw: string) => unknown): void {
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (request, bytes, done) => {
    try {
      rejectViolation(checkJsonMediaType(request.headers['content-type']));
      const raw = decodeUtf8(bytes as Buffer);
      request.rawBody = raw;
      done(null, parse(raw));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/**
 * Leaves every request body of `scope` unread, for routes that stream it (`request.raw`): no body limit applies,
 * so such a route must bound what it holds itself.
 */
export function keepBodyAsStream(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}
