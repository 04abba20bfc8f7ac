import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { ApiError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body as received, for Idempotency-Key fingerprints. */
    rawBody?: string;
  }
}

/**
 * Parses every request body as JSON whatever its Content-Type (a missing header is the most common slip with curl).
 * `__proto__` and `constructor.prototype` keys are refused so that no body can reach an object's prototype.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.decorateRequest('rawBody', undefined);
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, text, done) => {
    const raw = text as string;
    request.rawBody = raw;
    if (raw.length === 0) return done(null, undefined);
    try {
      done(null, secureJson.parse(raw, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const message =
        error instanceof SyntaxError
          ? `Malformed JSON body: ${error.message}`
          : 'Malformed JSON body: forbidden prototype property';
      done(new ApiError('invalid_json', message), undefined);
    }
  });
}
