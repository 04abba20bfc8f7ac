import type { FastifyInstance } from 'fastify';
import { parseJsonText } from './json-text.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body as received, for Idempotency-Key fingerprints. */
    rawBody?: string;
  }
}

/** Parses every request body as JSON whatever its Content-Type (a missing header is the most common slip with curl). */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.decorateRequest('rawBody', undefined);
  addBodyParser(app, parseJsonText);
}

/**
 * Keeps every request body of `scope` as text, unparsed, for routes that parse it themselves (off the event loop
 * when it is large). The body is still read whatever its Content-Type and within the route's body limit.
 */
export function keepBodyAsText(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  addBodyParser(scope, (raw) => raw);
}

function addBodyParser(scope: FastifyInstance, parse: (raw: string) => unknown): void {
  scope.addContentTypeParser('*', { parseAs: 'string' }, (request, text, done) => {
    const raw = text as string;
    request.rawBody = raw;
    try {
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
